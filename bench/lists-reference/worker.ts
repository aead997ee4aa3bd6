/**
 * The reference of bench/lists.ts: a Worker that runs one bare SELECT on the app's D1 database and
 * answers its rows as JSON: the same runtime, the same database and the same HTTP round trip as the
 * API, without sign-in, policy, counts or shaping. Benchmark only; never deployed.
 */
interface ReferenceEnv {
  DB: D1Database;
}

const QUERIES: Record<string, string> = {
  sites: "SELECT * FROM sites WHERE account_id = ?1 ORDER BY name_sort, id LIMIT ?2 OFFSET ?3",
  pages: "SELECT * FROM pages WHERE site_id = ?1 AND is_enabled = 1 ORDER BY is_pinned DESC, name_sort, id LIMIT ?2 OFFSET ?3",
};

export default {
  async fetch(request: Request, env: ReferenceEnv): Promise<Response> {
    const url = new URL(request.url);
    const sql = QUERIES[url.pathname.slice(1)];
    if (!sql) return new Response("Not Found", { status: 404 });
    const { results } = await env.DB.prepare(sql)
      .bind(url.searchParams.get("owner"), Number(url.searchParams.get("limit") ?? 50), Number(url.searchParams.get("offset") ?? 0))
      .all();
    return Response.json({ rows: results });
  },
};
