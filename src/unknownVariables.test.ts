import { describe, expect, it } from 'vitest';
import { configWarnings } from './config.js';
import { CANOPY_PREFIXES, suggestionFor, unknownVariables } from './unknownVariables.js';

describe('unknownVariables', () => {
  it.each([
    ['TREE_STRATEGI', 'TREE_STRATEGY'],
    ['AUHT', 'AUTH'],
    ['POTR', 'PORT'],
    ['port', 'PORT'],
    ['DYNAMODB_TABEL', 'DYNAMODB_TABLE'],
    ['DYNAMO_TABLE', 'DYNAMODB_TABLE'],
    ['LOG_LEVLE', 'LOG_LEVEL'],
    ['JWT_SECRT', 'JWT_SECRET'],
    ['NODE_EVN', 'NODE_ENV'],
    ['CORS_ORIGIN', 'CORS_ORIGINS'],
  ])('suggests, for %s, %s', (typo, meant) => {
    expect(suggestionFor(typo)).toBe(meant);
  });

  it('suggests nothing for the common variables of a shell, near as some are to short names', () => {
    for (const name of ['HOME', 'PATH', 'HOSTNAME', 'PWD', 'TERM', 'USER', 'LANG', 'SHELL', 'TMPDIR', 'CI']) {
      expect(suggestionFor(name), name).toBeUndefined();
    }
  });

  it("takes the prefixes from Canopy's variables, leaving out those other software shares", () => {
    expect(CANOPY_PREFIXES).toEqual(expect.arrayContaining(['TREE_', 'DYNAMODB_', 'JOB_', 'MAX_', 'JWT_', 'LOG_']));
    expect(CANOPY_PREFIXES).not.toEqual(expect.arrayContaining(['AWS_']));
    expect(CANOPY_PREFIXES.filter((prefix) => ['AWS_', 'NODE_', 'OTEL_', 'API_'].includes(prefix))).toEqual([]);
  });

  it("warns of the typos and of unknown names with Canopy's prefixes, nothing else", () => {
    expect(
      unknownVariables([
        'TREE_STRATEGI',
        'AUHT',
        'TREE_STRATEGY',
        'AUTH',
        'DYNAMODB_FOO',
        'AWS_PROFILE',
        'AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED',
        'OTEL_RESOURCE_ATTRIBUTES',
        'NODE_OPTIONS',
        'HOME',
        'PATH',
        'npm_config_cache',
      ]),
    ).toEqual([
      'unknown variable TREE_STRATEGI: did you mean TREE_STRATEGY?',
      'unknown variable AUHT: did you mean AUTH?',
      'unknown variable DYNAMODB_FOO: Canopy reads no variable of that name (README.md: Configuration)',
    ]);
  });

  it('reads the names of the environment it is given', () => {
    expect(configWarnings({ TREE_STRATEGI: 'closure', PORT: '4000' })).toEqual([
      'unknown variable TREE_STRATEGI: did you mean TREE_STRATEGY?',
    ]);
  });
});
