import { appendFileSync, cpSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ensureWebBuild, gzippedBytes } from './web-build';

const workspace = resolve(__dirname, '../../../..');

/** A workspace of its own: the real page sources (copied, so the test may change them) and node_modules. */
function scratchRoot(): string {
  const root = mkdtempSync(join(tmpdir(), 'web-build-'));
  cpSync(join(workspace, 'apps/web/src'), join(root, 'apps/web/src'), { recursive: true });
  symlinkSync(join(workspace, 'node_modules'), join(root, 'node_modules'));
  return root;
}

describe('ensureWebBuild', () => {
  let root: string;
  beforeAll(() => {
    root = scratchRoot();
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('builds both pages once, keeps a current build, rebuilds when a source changes, and keeps the first load small', async () => {
    const first = await ensureWebBuild({ root });
    expect(first.pages.map((p) => p.path)).toEqual(['/', '/admin/']);
    const stamp = join(root, 'dist/web/web-build.json');
    const builtAt = statSync(stamp).mtimeMs;
    for (const page of first.pages) {
      const html = readFileSync(join(first.dir, page.file), 'utf8');
      for (const asset of page.firstLoad.filter((f) => f.startsWith('assets/'))) expect(html).toContain(`/${asset}`);
      expect(gzippedBytes(first, page.firstLoad)).toBeLessThan(300 * 1024);
    }
    // The chart library is not part of any first load.
    expect(first.lazy.length).toBeGreaterThan(0);
    expect(readFileSync(join(first.dir, first.lazy[0]!), 'utf8')).toContain('lightweight-charts');

    const again = await ensureWebBuild({ root });
    expect(again.inputHash).toBe(first.inputHash);
    expect(statSync(stamp).mtimeMs).toBe(builtAt);

    appendFileSync(join(root, 'apps/web/src/shared/page.css'), '\nfooter { letter-spacing: 0.01em; }\n');
    const rebuilt = await ensureWebBuild({ root });
    expect(rebuilt.inputHash).not.toBe(first.inputHash);
    expect(rebuilt.pages[0]!.firstLoad).not.toEqual(first.pages[0]!.firstLoad);
    expect(
      readFileSync(
        join(
          rebuilt.dir,
          rebuilt.pages[0]!.firstLoad.find((f) => f.endsWith('.css'))!,
        ),
        'utf8',
      ),
    ).toContain('letter-spacing');
  });
});
