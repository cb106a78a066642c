import { resolve } from 'node:path';
import { ensureWebBuild, fileBytes, gzippedBytes } from '@exchange/platform';

/**
 * `npm run build:web`: builds the pages into dist/web (as `npm start` does when they are stale)
 * and prints what a first visit downloads, raw and gzipped, and the chart library's lazy chunk.
 */
async function main(): Promise<void> {
  const started = Date.now();
  const build = await ensureWebBuild({ root: resolve(__dirname, '../..') });
  const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
  console.log(`dist/web (inputs ${build.inputHash}) ready in ${Date.now() - started} ms`);
  for (const page of build.pages) {
    console.log(
      `${page.path.padEnd(8)} first load ${kb(fileBytes(build, page.firstLoad))}, gzip ${kb(gzippedBytes(build, page.firstLoad))} (${page.firstLoad.join(', ')})`,
    );
  }
  console.log(
    `chart library (loaded on demand) ${kb(fileBytes(build, build.lazy))}, gzip ${kb(gzippedBytes(build, build.lazy))}`,
  );
}

void main();
