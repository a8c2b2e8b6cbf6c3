// Which Pixi renderer draws the arena. WebGL, unless the browser's WebGL is rasterised in software
// (SwiftShader, llvmpipe, ...: headless Chromium with --disable-gpu, machines without a usable GPU).
// There every frame of the WebGL canvas is drawn by the software GL and then read back whole
// (glReadPixels) for the software compositor, which blocks the page's main thread: 25-35 ms per
// frame at 1160x560 for one circle on this machine, so the page fell to 30 or 15 fps. Pixi's
// Canvas 2D renderer draws the same scene in about 3 ms and the compositor takes its bitmap as is.
// (failIfMajorPerformanceCaveat does not help: Chromium's SwiftShader WebGL does not report one.)
export type RendererKind = 'webgl' | 'canvas';

const SOFTWARE_GL = /swiftshader|llvmpipe|softpipe|software|basic render driver/i;

export function isSoftwareGl(renderer: string): boolean {
  return SOFTWARE_GL.test(renderer);
}

// The unmasked GL renderer string of a throwaway context, or null when there is no WebGL or the
// browser hides it.
function glRendererName(): string | null {
  if (typeof document === 'undefined') return null;
  const canvas = document.createElement('canvas');
  const gl = (canvas.getContext('webgl2') ?? canvas.getContext('webgl')) as WebGLRenderingContext | null;
  if (!gl) return null;
  try {
    const info = gl.getExtension('WEBGL_debug_renderer_info');
    const name = gl.getParameter(info ? info.UNMASKED_RENDERER_WEBGL : gl.RENDERER);
    return typeof name === 'string' ? name : null;
  } finally {
    gl.getExtension('WEBGL_lose_context')?.loseContext();
  }
}

export function rendererPreference(rendererName: string | null = glRendererName()): RendererKind[] {
  return rendererName !== null && isSoftwareGl(rendererName) ? ['canvas'] : ['webgl', 'canvas'];
}
