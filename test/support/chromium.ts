import {
  createReadStream,
  createWriteStream,
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createBrotliDecompress } from 'node:zlib';
import { extract } from 'tar-fs';

/**
 * The Chromium of the browser tests, from a registry package: `@sparticuz/chromium` ships a
 * headless Chromium for x86-64 Linux (brotli-compressed) with the shared libraries it needs
 * beyond glibc (NSS, NSPR, expat) and its fonts, so `npm ci` on a machine with only Node is
 * enough. It is unpacked once per version into the temp folder (about 200 MB), each part under a
 * temporary name renamed when complete, so an interrupted unpack is never taken for a whole one.
 * CHROMIUM_PATH runs another Chromium instead (any other platform, or a system browser).
 */
export interface ChromiumBinary {
  executablePath: string;
  /** The environment Chromium runs with (its libraries and fonts). */
  env: Record<string, string>;
}

const require = createRequire(import.meta.url);

export async function chromiumBinary(): Promise<ChromiumBinary> {
  if (process.env.CHROMIUM_PATH) return { executablePath: process.env.CHROMIUM_PATH, env: {} };
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    throw new Error(
      `the packaged Chromium runs on x86-64 Linux only (this is ${process.platform}-${process.arch}): ` +
        'set CHROMIUM_PATH to a Chromium',
    );
  }
  // The package exports no package.json: its folder is the one above its entry with bin/.
  let root = dirname(require.resolve('@sparticuz/chromium'));
  while (!existsSync(join(root, 'bin', 'chromium.br'))) {
    if (dirname(root) === root) throw new Error('@sparticuz/chromium has no bin/chromium.br');
    root = dirname(root);
  }
  const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
  const bin = join(root, 'bin');
  const home = join(tmpdir(), `canopy-chromium-${version}`);
  mkdirSync(home, { recursive: true });
  const executablePath = join(home, 'chromium');
  await unpacked(executablePath, async (to) => {
    await pipeline(
      createReadStream(join(bin, 'chromium.br')),
      createBrotliDecompress(),
      createWriteStream(to, { mode: 0o755 }),
    );
  });
  for (const part of ['al2023', 'fonts']) {
    await unpacked(join(home, part), async (to) => {
      await pipeline(createReadStream(join(bin, `${part}.tar.br`)), createBrotliDecompress(), extract(to));
    });
  }
  const fontsConf = join(home, 'fonts.conf');
  writeFileSync(
    fontsConf,
    '<?xml version="1.0"?><!DOCTYPE fontconfig SYSTEM "fonts.dtd">' +
      `<fontconfig><dir>${join(home, 'fonts')}</dir><cachedir>${join(home, 'fonts-cache')}</cachedir></fontconfig>\n`,
  );
  return {
    executablePath,
    env: { LD_LIBRARY_PATH: join(home, 'al2023', 'lib'), FONTCONFIG_FILE: fontsConf },
  };
}

/** Makes `target` with `make` (given a temporary path) unless it exists already. */
async function unpacked(target: string, make: (to: string) => Promise<void>): Promise<void> {
  if (existsSync(target)) return;
  const partial = `${target}.partial-${process.pid}`;
  rmSync(partial, { recursive: true, force: true });
  try {
    await make(partial);
    // Another process may have finished first: its copy is as good as ours.
    if (!existsSync(target)) renameSync(partial, target);
  } finally {
    rmSync(partial, { recursive: true, force: true });
  }
}
