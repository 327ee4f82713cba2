import { describe, expect, it } from 'vitest';
import { manifestLines } from './launcherJar.js';

describe('manifestLines', () => {
  it('folds an attribute into lines of at most 72 bytes that unfold to it', () => {
    const attribute = `Class-Path: ${Array.from({ length: 40 }, (_, i) => `../lib/library-${i}.jar`).join(' ')}`;
    const text = manifestLines(attribute);
    expect(text.endsWith('\n')).toBe(true);
    const lines = text.slice(0, -1).split('\n');
    for (const line of lines) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(72);
    expect(lines.slice(1).every((line) => line.startsWith(' '))).toBe(true);
    expect(lines.map((line, i) => (i === 0 ? line : line.slice(1))).join('')).toBe(attribute);
  });

  it('keeps a short attribute on one line', () => {
    expect(manifestLines('Class-Path: a.jar')).toBe('Class-Path: a.jar\n');
  });
});
