import { describe, expect, it } from 'vitest';
import { chooseStream, streamQuery } from './streamChoice';

describe('watch stream choice', () => {
  it('reads the compact stream unless the page asks for the contract one with ?stream=sprite', () => {
    expect(chooseStream('')).toBe('compact');
    expect(chooseStream('?stream=sprite')).toBe('sprite');
    expect(chooseStream('?renderer=canvas&stream=sprite')).toBe('sprite');
    expect(chooseStream('?stream=compact')).toBe('compact');
    expect(chooseStream('?stream=bogus')).toBe('compact');
  });

  it('asks the server for the compact stream by name and for the contract stream by nothing', () => {
    expect(streamQuery('compact')).toStrictEqual({ stream: 'compact' });
    expect(streamQuery('sprite')).toStrictEqual({});
  });
});
