// A binary WebSocket that reconnects with exponential backoff until it is closed on purpose.
import { backoffDelay } from './backoff';

export const GAME_SOCKET_PATH = '/ws/game';

export type ConnectionState =
  | { phase: 'connecting'; attempt: number }
  | { phase: 'open' }
  | { phase: 'waiting'; attempt: number; retryAt: number; closeCode: number; closeReason: string }
  | { phase: 'closed' };

export interface SocketHandlers {
  // Sends whatever the server must hear first on every (re)connection: Hello, then re-opening state.
  onOpen(send: (frame: Uint8Array) => void): void;
  onFrame(frame: Uint8Array): void;
  onState(state: ConnectionState): void;
}

// `ownerTokens` (owners mode, the schools socket) ride as `?ownerToken=t1,t2,…`: each token
// percent-encoded, joined with literal commas, as the server decodes the parameter and then splits it
// (the caller keeps commas out of the tokens). None: the URL is exactly the one before owners mode.
export function gameSocketUrl(location: Pick<Location, 'protocol' | 'host'> = globalThis.location, ownerTokens: readonly string[] = []): string {
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  const query = ownerTokens.length === 0 ? '' : `?ownerToken=${ownerTokens.map(encodeURIComponent).join(',')}`;
  return `${scheme}//${location.host}${GAME_SOCKET_PATH}${query}`;
}

export class ReconnectingSocket {
  private socket: WebSocket | null = null;
  private failures = 0; // consecutive failed or dropped connections since the last open
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  private stopped = false;

  constructor(
    private url: string,
    private readonly handlers: SocketHandlers,
  ) {}

  start(): void {
    this.stopped = false;
    this.connect();
  }

  send(frame: Uint8Array): boolean {
    if (this.socket?.readyState !== WebSocket.OPEN) return false;
    this.socket.send(frame);
    return true;
  }

  isOpen(): boolean {
    return this.socket?.readyState === WebSocket.OPEN;
  }

  // Skips the rest of the backoff wait, for a "reconnect now" button.
  retryNow(): void {
    if (this.stopped || this.socket) return;
    this.clearRetry();
    this.connect();
  }

  // Dials another URL at once (a credential added, changed or dropped), closing the current socket.
  reconnectTo(url: string): void {
    this.url = url;
    if (this.stopped) return;
    this.clearRetry();
    const socket = this.socket;
    this.socket = null;
    if (socket) {
      socket.onopen = socket.onmessage = socket.onclose = socket.onerror = null;
      socket.close(1000);
    }
    this.failures = 0;
    this.connect();
  }

  // Closes for good; `lastFrame` (e.g. CloseSchool) goes out first when the socket is open.
  stop(lastFrame?: Uint8Array): void {
    this.stopped = true;
    this.clearRetry();
    const socket = this.socket;
    this.socket = null;
    if (socket) {
      if (lastFrame && socket.readyState === WebSocket.OPEN) socket.send(lastFrame);
      socket.onopen = socket.onmessage = socket.onclose = socket.onerror = null;
      socket.close(1000);
    }
    this.handlers.onState({ phase: 'closed' });
  }

  private connect(): void {
    this.handlers.onState({ phase: 'connecting', attempt: this.failures + 1 });
    const socket = new WebSocket(this.url);
    socket.binaryType = 'arraybuffer';
    this.socket = socket;
    socket.onopen = () => {
      this.failures = 0;
      this.handlers.onState({ phase: 'open' });
      this.handlers.onOpen((frame) => socket.send(frame));
    };
    socket.onmessage = (event: MessageEvent) => {
      if (event.data instanceof ArrayBuffer) this.handlers.onFrame(new Uint8Array(event.data));
    };
    // onclose always follows onerror, so reconnecting is scheduled in one place.
    socket.onerror = () => {};
    socket.onclose = (event: CloseEvent) => {
      if (this.socket !== socket) return;
      this.socket = null;
      if (this.stopped) return;
      this.scheduleRetry(event.code, event.reason);
    };
  }

  private scheduleRetry(closeCode: number, closeReason: string): void {
    const attempt = ++this.failures;
    const delay = backoffDelay(attempt);
    this.handlers.onState({ phase: 'waiting', attempt, retryAt: Date.now() + delay, closeCode, closeReason });
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      this.connect();
    }, delay);
  }

  private clearRetry(): void {
    if (this.retryTimer !== null) clearTimeout(this.retryTimer);
    this.retryTimer = null;
  }
}
