// What the router mounts: an element and a way to tear down timers, sockets and listeners.
export interface View {
  readonly element: HTMLElement;
  destroy(): void;
}
