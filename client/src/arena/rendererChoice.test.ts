import { describe, expect, it } from 'vitest';
import { isSoftwareGl, rendererPreference } from './rendererChoice';

describe('rendererPreference', () => {
  it('draws with Canvas 2D when WebGL is rasterised in software', () => {
    const headless = 'ANGLE (Google, Vulkan 1.3.0 (SwiftShader Device (Subzero) (0x0000C0DE)), SwiftShader driver)';
    expect(isSoftwareGl(headless)).toBe(true);
    expect(isSoftwareGl('llvmpipe (LLVM 15.0.6, 256 bits)')).toBe(true);
    expect(rendererPreference(headless)).toEqual(['canvas']);
  });

  it('keeps WebGL on a GPU, and when the GPU is not named', () => {
    const gpu = 'ANGLE (Intel, Mesa Intel(R) UHD Graphics 620 (KBL GT2), OpenGL 4.6)';
    expect(isSoftwareGl(gpu)).toBe(false);
    expect(rendererPreference(gpu)).toEqual(['webgl', 'canvas']);
    expect(rendererPreference('WebKit WebGL')).toEqual(['webgl', 'canvas']);
    expect(rendererPreference(null)).toEqual(['webgl', 'canvas']);
  });
});
