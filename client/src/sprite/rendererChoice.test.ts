import { describe, expect, it } from 'vitest';
import { chooseRenderer, isSoftwareRenderer } from './rendererChoice';

const SWIFTSHADER = 'ANGLE (Google, Vulkan 1.3.0 (SwiftShader Device (Subzero) (0x0000C0DE)), SwiftShader driver)';
const LLVMPIPE = 'llvmpipe (LLVM 15.0.6, 256 bits)';
const WARP = 'ANGLE (Microsoft, Microsoft Basic Render Driver Direct3D11 vs_5_0 ps_5_0, D3D11)';
const NVIDIA = 'ANGLE (NVIDIA, NVIDIA GeForce RTX 3060 (0x00002503) Direct3D11 vs_5_0 ps_5_0, D3D11)';
const INTEL_MESA = 'Mesa Intel(R) UHD Graphics 620 (KBL GT2)';
const APPLE = 'Apple M2';

describe('isSoftwareRenderer', () => {
  it('names the software rasterizers Chromium and Mesa report', () => {
    for (const name of [SWIFTSHADER, LLVMPIPE, WARP, 'softpipe', 'Google SwiftShader']) expect(isSoftwareRenderer(name), name).toBe(true);
  });

  it('leaves real GPUs alone', () => {
    for (const name of [NVIDIA, INTEL_MESA, APPLE, 'AMD Radeon RX 6800']) expect(isSoftwareRenderer(name), name).toBe(false);
  });
});

describe('chooseRenderer', () => {
  it('draws with Canvas 2D when WebGL is software', () => {
    expect(chooseRenderer('', SWIFTSHADER)).toBe('canvas');
    expect(chooseRenderer('?x=1', LLVMPIPE)).toBe('canvas');
  });

  it('draws with WebGL on a GPU, and when the renderer name is hidden', () => {
    expect(chooseRenderer('', NVIDIA)).toBe('webgl');
    expect(chooseRenderer('', '')).toBe('webgl');
  });

  it('draws with Canvas 2D when there is no WebGL at all', () => {
    expect(chooseRenderer('', null)).toBe('canvas');
  });

  it('obeys ?renderer= either way', () => {
    expect(chooseRenderer('?renderer=webgl', SWIFTSHADER)).toBe('webgl');
    expect(chooseRenderer('?renderer=canvas', NVIDIA)).toBe('canvas');
    expect(chooseRenderer('?lang=ru&renderer=canvas', NVIDIA)).toBe('canvas');
  });

  it('ignores an unknown or empty ?renderer= and decides by the GPU', () => {
    expect(chooseRenderer('?renderer=webgpu', NVIDIA)).toBe('webgl');
    expect(chooseRenderer('?renderer=', SWIFTSHADER)).toBe('canvas');
    expect(chooseRenderer('?renderer=CANVAS%00', NVIDIA)).toBe('webgl');
  });
});
