import { describe, expect, it } from "vitest";
import { editorBaseTag, findEditorHead, withHeadInsert } from "~/lib/regions/editor-document";
import { isPreviewRequest, previewOrigin } from "~/services/preview-origin.server";

const X = "<X>";

describe("where the editor's tags go", () => {
  it.each([
    ["after <head>", "<!DOCTYPE html>\n<html lang=en>\n<HEAD data-a='>'>\n<title>T</title>", "<!DOCTYPE html>\n<html lang=en>\n<HEAD data-a='>'><X>\n<title>T</title>"],
    ["after <html> when there is no head tag", "<!doctype html><html><title>T</title>", "<!doctype html><html><X><title>T</title>"],
    ["before the first head element when neither tag is there", "<!doctype html>\n<meta charset=utf-8><p>x", "<!doctype html>\n<X><meta charset=utf-8><p>x"],
    ["before the first text of a fragment", "Hello <b>there</b>", "<X>Hello <b>there</b>"],
    ["after a BOM, never before it", "\uFEFF<p>x</p>", "\uFEFF<X><p>x</p>"],
    ["after leading comments and the doctype", "<!-- built 2026 -->\n<!DOCTYPE html>\n<html><head></head>", "<!-- built 2026 -->\n<!DOCTYPE html>\n<html><head><X></head>"],
    ["after leading server code in PHP pages", "<?php $t = '<head>'; ?>\n<html><head><title>x</title>", "<?php $t = '<head>'; ?>\n<html><head><X><title>x</title>"],
    ["before a body when the head is empty", "<html><body><p>x", "<html><X><body><p>x"],
  ])("%s", (_name, source, expected) => {
    const dialect = source.startsWith("<?php") ? "php" : "html";
    expect(withHeadInsert(source, findEditorHead(source, dialect), X)).toBe(expected);
  });

  it("finds the page's own <base href> in the head", () => {
    expect(findEditorHead('<html><head><base href="/shop/?a=1&amp;b=2"><title>x</title></head>', "html").baseHref).toBe("/shop/?a=1&b=2");
    expect(findEditorHead("<html><head><title>x</title></head><body><base href=/no>", "html").baseHref).toBeNull();
  });

  it("points the <base> at the live page, or at the page's own base resolved against it", () => {
    expect(editorBaseTag("https://example.com/blog/a.html", null)).toBe('<base href="https://example.com/blog/a.html">');
    expect(editorBaseTag("https://example.com/blog/a.html", "../assets/")).toBe('<base href="https://example.com/assets/">');
    expect(editorBaseTag("https://example.com/a.html", 'x" onload="alert(1)')).toBe('<base href="https://example.com/x%22%20onload=%22alert(1)">');
  });
});

describe("the preview origin", () => {
  it("is the configured one, else localhost and 127.0.0.1 swapped on the same port", () => {
    expect(previewOrigin({ PREVIEW_ORIGIN: "https://preview.example.net/" }, new URL("https://app.example.com/x"))).toBe("https://preview.example.net");
    expect(previewOrigin({}, new URL("http://localhost:8787/sites"))).toBe("http://127.0.0.1:8787");
    expect(previewOrigin({ PREVIEW_ORIGIN: "" }, new URL("http://127.0.0.1:9000/"))).toBe("http://localhost:9000");
  });

  it("tells preview requests only when one is configured", () => {
    expect(isPreviewRequest({ PREVIEW_ORIGIN: "https://preview.example.net" }, new URL("https://preview.example.net/api/sites"))).toBe(true);
    expect(isPreviewRequest({ PREVIEW_ORIGIN: "https://preview.example.net" }, new URL("https://app.example.com/api/sites"))).toBe(false);
    expect(isPreviewRequest({}, new URL("http://127.0.0.1:8787/"))).toBe(false);
  });
});
