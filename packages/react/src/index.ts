import { createElement, forwardRef, useEffect, useImperativeHandle, useRef, useState, type ForwardedRef, type ReactElement } from 'react';
import { init, type KitInstance } from '@kit-assistant/sdk';

/** Kit.init's options (docs/sdk.md), as props; `className` and `style` apply to the inline container. */
export interface KitAssistantProps {
  apiKey: string;
  placement?: 'launcher' | 'sidebar' | 'inline';
  /** Every other Kit.init option (mode, context, endpoint, strings, language, persist, …). */
  options?: Record<string, unknown>;
  onReady?: (payload: unknown) => void;
  onMessage?: (payload: unknown) => void;
  onError?: (payload: unknown) => void;
  className?: string;
  style?: Record<string, string | number>;
}

/**
 * Kit as a React component: `Kit.init` on mount, `destroy()` on unmount, and again when `apiKey`, `placement` or the
 * options' content change. With placement 'inline' it renders the element Kit mounts into; otherwise nothing (the
 * launcher or side panel attach to the page). The ref is the Kit instance (`ask`, `open`, `close`, …).
 */
export const KitAssistant = forwardRef(function KitAssistant(props: KitAssistantProps, ref: ForwardedRef<KitInstance | null>): ReactElement | null {
  const container = useRef<HTMLDivElement>(null);
  const [instance, setInstance] = useState<KitInstance | null>(null);
  const callbacks = useRef(props);
  callbacks.current = props;
  // The instance that already calls onReady (Kit reads the page as soon as someone listens for `ready`, so the
  // listener is only added when the host passes onReady: docs/sdk.md, "When Kit reads the page").
  const readyListened = useRef<KitInstance | null>(null);
  const wantsReady = Boolean(props.onReady);
  useImperativeHandle(ref, () => instance as KitInstance, [instance]);
  const optionsKey = JSON.stringify(props.options ?? {});
  useEffect(() => {
    const inline = props.placement === 'inline';
    const kit = init({
      ...(props.options ?? {}),
      apiKey: props.apiKey,
      ...(props.placement ? { placement: props.placement } : {}),
      ...(inline ? { target: container.current } : {}),
      ...(callbacks.current.onReady ? { onReady: (p: unknown) => callbacks.current.onReady?.(p) } : {}),
      onMessage: (p: unknown) => callbacks.current.onMessage?.(p),
      onError: (p: unknown) => callbacks.current.onError?.(p),
    });
    if (callbacks.current.onReady) readyListened.current = kit;
    setInstance(kit);
    return () => {
      kit.destroy();
      setInstance((current) => (current === kit ? null : current));
    };
    // optionsKey stands for props.options: a new object with the same content must not start Kit again.
  }, [props.apiKey, props.placement, optionsKey]);
  // onReady given after mount: listen from now on.
  useEffect(() => {
    if (!instance || !wantsReady || readyListened.current === instance) return;
    readyListened.current = instance;
    return instance.on('ready', (p: unknown) => callbacks.current.onReady?.(p));
  }, [instance, wantsReady]);
  return props.placement === 'inline' ? createElement('div', { ref: container, className: props.className, style: props.style }) : null;
});
