import { describe, expect, it } from 'vitest';
import { changeTime } from './changeTime.js';

describe('changeTime', () => {
  const node = { createdAt: '2030-01-01T00:00:00.000Z', updatedAt: '2030-01-01T00:00:05.000Z' };

  it("is the writer's clock when it is past the node's last change", () => {
    expect(changeTime(node, Date.parse('2030-01-01T00:00:09.000Z'))).toBe('2030-01-01T00:00:09.000Z');
    expect(changeTime(undefined, Date.parse('2030-01-01T00:00:09.000Z'))).toBe('2030-01-01T00:00:09.000Z');
  });

  it("is 1 ms past the node's last change when the writer's clock is behind it", () => {
    expect(changeTime(node, Date.parse('2029-12-31T23:00:00.000Z'))).toBe('2030-01-01T00:00:05.001Z');
    expect(changeTime(node, Date.parse('2030-01-01T00:00:05.000Z'))).toBe('2030-01-01T00:00:05.001Z');
  });
});
