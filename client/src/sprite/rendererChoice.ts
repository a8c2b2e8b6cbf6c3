// Which PixiJS backend draws a Sprite v1 board. WebGL when the browser has a GPU; the Canvas 2D backend
// when WebGL itself is drawn in software (SwiftShader, llvmpipe, …): there every blended pixel of a
// 1364² vision cone goes through an emulated GPU and the canvas is read back each frame, while Canvas 2D
// blends on the CPU's vector units with no read-back (client/README.md, "Measuring the watch page").
export type RendererKind = 'webgl' | 'canvas';

// Query parameter that forces a backend (`?renderer=webgl` or `?renderer=canvas`): for measuring and
// for a player whose GPU driver misbehaves.
export const RENDERER_PARAM = 'renderer';

// Renderer strings of software rasterizers as WebGL reports them (WEBGL_debug_renderer_info).
const SOFTWARE_RENDERERS = /swiftshader|llvmpipe|softpipe|software|basic render driver/i;

export function isSoftwareRenderer(unmaskedRenderer: string): boolean {
  return SOFTWARE_RENDERERS.test(unmaskedRenderer);
}

// `webglRenderer` is null when WebGL is unavailable, '' when the browser hides the renderer's name
// (then WebGL is kept: a hidden name is usually a privacy setting on real hardware).
export function chooseRenderer(search: string, webglRenderer: string | null): RendererKind {
  const forced = new URLSearchParams(search).get(RENDERER_PARAM);
  if (forced === 'webgl' || forced === 'canvas') return forced;
  if (webglRenderer === null) return 'canvas';
  return isSoftwareRenderer(webglRenderer) ? 'canvas' : 'webgl';
}

let probed: string | null | undefined;

// The unmasked WebGL renderer name of this browser, asked once from a throwaway context that is then
// released; null without WebGL.
export function probeWebglRenderer(): string | null {
  if (probed !== undefined) return probed;
  probed = null;
  try {
    const canvas = document.createElement('canvas');
    const gl = (canvas.getContext('webgl2') ?? canvas.getContext('webgl')) as WebGLRenderingContext | null;
    if (gl) {
      const info = gl.getExtension('WEBGL_debug_renderer_info');
      probed = info ? String(gl.getParameter(info.UNMASKED_RENDERER_WEBGL) ?? '') : '';
      gl.getExtension('WEBGL_lose_context')?.loseContext();
    }
  } catch {
    probed = null;
  }
  return probed;
}

export function rendererForThisPage(): RendererKind {
  return chooseRenderer(typeof location === 'undefined' ? '' : location.search, probeWebglRenderer());
}
