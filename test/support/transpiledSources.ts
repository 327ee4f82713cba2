import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * The sources of src/ as JavaScript, for the processes the suite starts (the `tree` command):
 * each file transpiled once per run, as tsx transpiles it at every start, into a folder laid
 * out as the package's build (`dist/`: src/, schema/, package.json), inside node_modules so
 * that the packages resolve. Started through tsx, each `tree` process spent about 1.5 s of CPU
 * on its hooks and transforms before its first line; the suite starts more than 60.
 * `test/integration/maintenance/maintenance.test.ts` still runs one through `npm run tree`.
 */
export function transpileSources(): string {
  const parent = join(REPO_ROOT, 'node_modules', '.cache');
  mkdirSync(parent, { recursive: true });
  const out = mkdtempSync(join(parent, 'canopy-test-'));
  // The project's compiler options (decorators, target), emitting ES modules as the package is one.
  const { config } = ts.readConfigFile(join(REPO_ROOT, 'tsconfig.json'), (path) => ts.sys.readFile(path));
  const options = {
    ...ts.convertCompilerOptionsFromJson(config.compilerOptions, REPO_ROOT).options,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
  };
  for (const file of readdirSync(join(REPO_ROOT, 'src'), { recursive: true, encoding: 'utf8' })) {
    if (!file.endsWith('.ts') || file.endsWith('.test.ts')) continue;
    const source = readFileSync(join(REPO_ROOT, 'src', file), 'utf8');
    const { outputText } = ts.transpileModule(source, { compilerOptions: options, fileName: file });
    const target = join(out, 'src', file.replace(/\.ts$/, '.js'));
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, outputText);
  }
  cpSync(join(REPO_ROOT, 'src/dynamodb/BoundDynamoDBLocal.java'), join(out, 'src/dynamodb/BoundDynamoDBLocal.java'));
  cpSync(join(REPO_ROOT, 'schema'), join(out, 'schema'), { recursive: true });
  cpSync(join(REPO_ROOT, 'package.json'), join(out, 'package.json'));
  return out;
}
