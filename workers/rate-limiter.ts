import { DurableObject } from "cloudflare:workers";

/**
 * The figures one subject is counted with. The service owns them (DECISIONS.md: 5 per minute per
 * account, 30 per minute per address, a hard stop after 100 consecutive failures for accounts).
 */
export interface RateLimitPolicy {
  /** Failed (or still running) attempts allowed inside one window. */
  limit: number;
  windowMs: number;
  /** Consecutive failures after which every attempt is refused until `reset()`; null for none. */
  hardStopAfter: number | null;
}

export type Acquired =
  /** `consecutive` counts this attempt, so the caller knows when a failure reaches the hard stop. */
  | { allowed: true; ticket: string; consecutive: number }
  /** `retryAfterMs` is null at the hard stop: no waiting helps, only a password reset. */
  | { allowed: false; hardStop: boolean; retryAfterMs: number | null };

/** What one subject keeps: its attempts inside the window and its run of failures. */
interface State {
  windowMs: number;
  /** [ticket, time] of each attempt that failed or is still running, oldest first. */
  recent: [string, number][];
  consecutive: number;
}

const KEY = "state";

/**
 * Exact failure counters for one subject (`login:account:<id or email>`, `login:ip:<address>`,
 * `tfa:account:<id>`, …; one object per name, SECURITY.md 13). An attempt is counted when it
 * starts, as a failure, before any password is hashed, so parallel requests cannot slip past the
 * limit; a success hands its ticket back. Each method reads and writes its state synchronously
 * (the SQLite-backed synchronous KV), so no other request interleaves inside a decision.
 *
 * Time is a parameter (`now`, default the clock) so tests can step past a window without waiting.
 * An alarm after the newest attempt's window prunes the state and deletes it once it is empty.
 *
 * @example
 * const limiter = env.RATE_LIMITER.getByName("login:account:u_123");
 * const a = await limiter.acquire({ limit: 5, windowMs: 60_000, hardStopAfter: 100 });
 * if (a.allowed && passwordIsRight) await limiter.succeed(a.ticket);
 */
export class RateLimiter extends DurableObject<Env> {
  /** Starts an attempt if the window and the hard stop allow it; the attempt counts as failed until `succeed`. */
  async acquire(policy: RateLimitPolicy, now = Date.now()): Promise<Acquired> {
    const state = this.#load(policy.windowMs, now);
    if (policy.hardStopAfter !== null && state.consecutive >= policy.hardStopAfter) {
      return { allowed: false, hardStop: true, retryAfterMs: null };
    }
    if (state.recent.length >= policy.limit) {
      // The attempt that must leave the window before one more fits in it.
      const [, at] = state.recent[state.recent.length - policy.limit];
      return { allowed: false, hardStop: false, retryAfterMs: Math.max(1, at + state.windowMs - now) };
    }
    // Random, so a ticket from before a reset or expiry can never match a later attempt's.
    const ticket = crypto.randomUUID();
    state.recent.push([ticket, now]);
    // Only subjects with a hard stop keep a run; an address's state can then expire entirely.
    if (policy.hardStopAfter !== null) state.consecutive += 1;
    this.#save(state);
    await this.ctx.storage.setAlarm(now + state.windowMs);
    return { allowed: true, ticket, consecutive: state.consecutive };
  }

  /** The attempt succeeded: it no longer counts, and the run of consecutive failures ends. */
  succeed(ticket: string, now = Date.now()): void {
    const state = this.#load(null, now);
    state.recent = state.recent.filter(([t]) => t !== ticket);
    state.consecutive = 0;
    this.#save(state);
  }

  /** The attempt never ran (another subject refused it): undo what `acquire` counted. */
  cancel(ticket: string, now = Date.now()): void {
    const state = this.#load(null, now);
    const before = state.recent.length;
    state.recent = state.recent.filter(([t]) => t !== ticket);
    if (state.recent.length < before) state.consecutive = Math.max(0, state.consecutive - 1);
    this.#save(state);
  }

  /** What is counted now (for tests and support tools). */
  inspect(now = Date.now()): { inWindow: number; consecutive: number } {
    const state = this.#load(null, now);
    return { inWindow: state.recent.length, consecutive: state.consecutive };
  }

  /** Forgets everything, the hard stop included (the password-reset flow calls this). */
  async reset(): Promise<void> {
    await this.ctx.storage.deleteAlarm();
    await this.ctx.storage.deleteAll();
  }

  override async alarm(): Promise<void> {
    const now = Date.now();
    const state = this.#load(null, now);
    if (state.recent.length === 0 && state.consecutive === 0) {
      await this.ctx.storage.deleteAll();
      return;
    }
    this.#save(state);
    // A test may have counted attempts in the future; come back when the newest one has expired.
    const newest = state.recent.at(-1)?.[1];
    if (newest !== undefined) await this.ctx.storage.setAlarm(Math.max(now, newest) + state.windowMs);
  }

  /** The state with attempts older than the window dropped (lazy expiry). */
  #load(windowMs: number | null, now: number): State {
    const stored = this.ctx.storage.kv.get<State>(KEY);
    const state: State = stored ?? { windowMs: windowMs ?? 60_000, recent: [], consecutive: 0 };
    if (windowMs !== null) state.windowMs = windowMs;
    state.recent = state.recent.filter(([, at]) => at > now - state.windowMs).sort((a, b) => a[1] - b[1]);
    return state;
  }

  /** Nothing left to remember is stored as nothing. */
  #save(state: State): void {
    if (state.recent.length === 0 && state.consecutive === 0) this.ctx.storage.kv.delete(KEY);
    else this.ctx.storage.kv.put(KEY, state);
  }
}
