import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';

/** What the pages' build produced: where, from which inputs, and what a first visit downloads. */
export interface WebBuild {
  dir: string;
  inputHash: string;
  pages: { path: string; file: string; firstLoad: string[] }[];
  /** Files loaded on demand (the chart library's chunk). */
  lazy: string[];
}

export interface WebBuildOptions {
  /** The workspace root: sources in apps/web/src, output in dist/web. */
  root: string;
}

const PAGES = [
  { path: '/', html: 'index.html', entry: 'trade/trade-page.tsx', title: 'Exchange' },
  { path: '/admin/', html: 'admin/index.html', entry: 'admin/admin-page.tsx', title: 'Exchange · operator console' },
];
/** Packages whose version changes the bundle. */
const BUNDLED_PACKAGES = ['preact', 'lightweight-charts', 'esbuild'];
const STAMP = 'web-build.json';

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? filesUnder(join(dir, e.name)) : [join(dir, e.name)],
  );
}

/** A hash of everything the bundle is made of, so a start rebuilds exactly when something changed. */
function inputHash(root: string): string {
  const hash = createHash('sha256');
  const sources = join(root, 'apps/web/src');
  for (const file of filesUnder(sources).sort())
    hash.update(relative(sources, file)).update('\0').update(readFileSync(file));
  for (const name of BUNDLED_PACKAGES)
    hash.update(name).update(readFileSync(join(root, 'node_modules', name, 'package.json')));
  hash.update(readFileSync(__filename));
  return hash.digest('hex').slice(0, 16);
}

function readStamp(dir: string): WebBuild | undefined {
  try {
    return JSON.parse(readFileSync(join(dir, STAMP), 'utf8')) as WebBuild;
  } catch {
    return undefined;
  }
}

function html(title: string, scripts: string[], preloads: string[], styles: string[]): string {
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${title}</title>`,
    // No favicon request (it would be a 404 on every visit).
    '<link rel="icon" href="data:,">',
    ...styles.map((s) => `<link rel="stylesheet" href="/${s}">`),
    ...scripts.map((s) => `<script type="module" src="/${s}"></script>`),
    ...preloads.map((s) => `<link rel="modulepreload" href="/${s}">`),
    '</head>',
    '<body><div id="app"></div><noscript>This page needs JavaScript.</noscript></body>',
    '</html>',
    '',
  ].join('\n');
}

/**
 * Builds the trading page and the operator console with esbuild into dist/web (hashed file names
 * under assets/, the HTML pages naming them) unless dist/web was built from the same inputs. The
 * new build is written beside it and renamed into place, so a concurrent start never serves half
 * a build.
 */
export async function ensureWebBuild(options: WebBuildOptions): Promise<WebBuild> {
  const root = resolve(options.root);
  const dir = join(root, 'dist/web');
  const hash = inputHash(root);
  const current = readStamp(dir);
  if (current?.inputHash === hash) return { ...current, dir };

  const { build } = await import('esbuild');
  const staging = join(root, 'dist', `web-${randomBytes(4).toString('hex')}`);
  mkdirSync(staging, { recursive: true });
  const result = await build({
    absWorkingDir: root,
    entryPoints: PAGES.map((p) => join('apps/web/src', p.entry)),
    outdir: join(staging, 'assets'),
    entryNames: '[name]-[hash]',
    chunkNames: 'chunk-[hash]',
    assetNames: '[name]-[hash]',
    bundle: true,
    splitting: true,
    format: 'esm',
    minify: true,
    target: ['chrome100', 'firefox100', 'safari15'],
    jsx: 'automatic',
    jsxImportSource: 'preact',
    define: { 'process.env.NODE_ENV': '"production"' },
    metafile: true,
    logLevel: 'silent',
  });
  const outputs = result.metafile.outputs;
  const rel = (file: string) => relative(staging, resolve(root, file)).split('\\').join('/');
  const staticImports = (file: string, seen = new Set<string>()): string[] => {
    if (seen.has(file)) return [];
    seen.add(file);
    return [
      file,
      ...(outputs[file]?.imports ?? [])
        .filter((i) => i.kind === 'import-statement')
        .flatMap((i) => staticImports(i.path, seen)),
    ];
  };
  const pages: WebBuild['pages'] = [];
  const eager = new Set<string>();
  for (const page of PAGES) {
    const [entryFile, meta] = Object.entries(outputs).find(
      ([, o]) => o.entryPoint === join('apps/web/src', page.entry),
    )!;
    const scripts = staticImports(entryFile);
    const styles = meta.cssBundle ? [meta.cssBundle] : [];
    scripts.forEach((s) => eager.add(s));
    styles.forEach((s) => eager.add(s));
    const text = html(page.title, [rel(entryFile)], scripts.slice(1).map(rel), styles.map(rel));
    mkdirSync(join(staging, page.html, '..'), { recursive: true });
    writeFileSync(join(staging, page.html), text);
    pages.push({ path: page.path, file: page.html, firstLoad: [page.html, ...scripts.map(rel), ...styles.map(rel)] });
  }
  const lazy = Object.keys(outputs)
    .filter((f) => !eager.has(f) && !f.endsWith('.map'))
    .map(rel);
  const stamp: WebBuild = { dir, inputHash: hash, pages, lazy };
  writeFileSync(join(staging, STAMP), JSON.stringify(stamp, null, 2));

  if (existsSync(dir)) rmSync(dir, { recursive: true, force: true });
  try {
    renameSync(staging, dir);
  } catch (error) {
    // Another start renamed its identical build into place first.
    rmSync(staging, { recursive: true, force: true });
    if (readStamp(dir)?.inputHash !== hash) throw error;
  }
  return stamp;
}

/** Compressed (gzip -9) bytes of files of a build, as a browser would download them. */
export function gzippedBytes(build: WebBuild, files: readonly string[]): number {
  return files.reduce((sum, f) => sum + gzipSync(readFileSync(join(build.dir, f)), { level: 9 }).length, 0);
}

export function fileBytes(build: WebBuild, files: readonly string[]): number {
  return files.reduce((sum, f) => sum + statSync(join(build.dir, f)).size, 0);
}
