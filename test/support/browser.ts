import { createReadStream, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { extname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { chromiumBinary } from './chromium.js';

/**
 * Headless Chromium for the browser tests: the one the `@sparticuz/chromium` package ships
 * (chromium.ts), driven by playwright-core. Playwright never downloads a browser of its own here.
 */

/**
 * The background-networking flags matter: without them Chromium keeps trying to reach Google's
 * hosts (component updates, sync, QUIC probes), which a closed network refuses, many at a time.
 */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** How long any single wait in a browser test may take before it fails with a clear message. */
export const BROWSER_WAIT_MS = 15_000;

export const ARTIFACTS_DIR = fileURLToPath(new URL('../../test-artifacts/', import.meta.url));

export interface HeadlessBrowser {
  context: BrowserContext;
  /** A new page; its uncaught errors and console errors are kept in `problems`. */
  newPage(): Promise<Page>;
  /** Uncaught page errors and console errors seen so far, for failure messages. */
  problems: string[];
  /** Closes Chromium and removes its profile folder. */
  close(): Promise<void>;
}

/** Starts headless Chromium with a fresh, empty profile in a temp folder. */
export async function launchBrowser(): Promise<HeadlessBrowser> {
  const binary = await chromiumBinary();
  const userDataDir = mkdtempSync(join(tmpdir(), 'canopy-profile-'));
  let context: BrowserContext;
  try {
    // A persistent context is how Playwright takes an explicit --user-data-dir.
    context = await chromium.launchPersistentContext(userDataDir, {
      executablePath: binary.executablePath,
      env: { ...process.env, ...binary.env } as Record<string, string>,
      headless: true,
      args: CHROMIUM_ARGS,
      viewport: { width: 1280, height: 800 },
    });
  } catch (error) {
    rmSync(userDataDir, { recursive: true, force: true });
    throw error;
  }
  context.setDefaultTimeout(BROWSER_WAIT_MS);
  const problems: string[] = [];
  let closed = false;
  return {
    context,
    problems,
    async newPage() {
      const page = await context.newPage();
      page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
      page.on('console', (message) => {
        // The browser asks for /favicon.ico on its own; a 404 there is not the page's problem.
        if (message.location().url.endsWith('/favicon.ico')) return;
        if (message.type() === 'error') problems.push(`console error: ${message.text()} (${message.location().url})`);
      });
      page.on('response', (response) => {
        if (response.status() >= 400 && !response.url().endsWith('/favicon.ico'))
          problems.push(`HTTP ${response.status()}: ${response.request().method()} ${response.url()}`);
      });
      return page;
    },
    async close() {
      if (closed) return;
      closed = true;
      try {
        await context.close();
      } finally {
        rmSync(userDataDir, { recursive: true, force: true });
      }
    },
  };
}

/** Every URL the page requests, in order (data: and blob: URLs included when Chromium reports them). */
export function recordRequests(page: Page): string[] {
  const urls: string[] = [];
  page.on('request', (request) => urls.push(request.url()));
  return urls;
}

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/** The URLs that went anywhere but this machine. */
export function nonLocalRequests(urls: readonly string[]): string[] {
  return urls.filter((raw) => {
    const url = new URL(raw);
    if (url.protocol === 'data:' || url.protocol === 'blob:') return false;
    return !LOCAL_HOSTS.has(url.hostname);
  });
}

/** Saves a full-page screenshot to test-artifacts/<name> (git-ignored) and returns its path. */
export async function saveScreenshot(page: Page, name: string): Promise<string> {
  mkdirSync(ARTIFACTS_DIR, { recursive: true });
  const path = join(ARTIFACTS_DIR, name);
  await page.screenshot({ path, fullPage: true });
  return path;
}

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.map': 'application/json',
};

export interface StaticServer {
  /** `http://127.0.0.1:<port>`: the origin the pages are served from. */
  origin: string;
  close(): Promise<void>;
}

/**
 * Serves a built single-page app from `dir` on 127.0.0.1, port 0: files as they are, and
 * index.html for every other GET (client-side routes).
 */
export async function serveStatic(dir: string): Promise<StaticServer> {
  const root = resolve(dir);
  const server: Server = createServer((req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405).end();
      return;
    }
    const pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://static.invalid').pathname);
    let file = resolve(root, `.${pathname}`);
    if (file !== root && !file.startsWith(root + sep)) {
      res.writeHead(403).end();
      return;
    }
    if (!isFile(file)) file = join(root, 'index.html');
    res.writeHead(200, {
      'content-type': CONTENT_TYPES[extname(file)] ?? 'application/octet-stream',
      'cache-control': 'no-cache',
    });
    if (req.method === 'HEAD') {
      res.end();
      return;
    }
    createReadStream(file).pipe(res);
  });
  await new Promise<void>((resolveListen, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolveListen);
  });
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolveClose) => {
        server.closeAllConnections();
        server.close(() => resolveClose());
      }),
  };
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
