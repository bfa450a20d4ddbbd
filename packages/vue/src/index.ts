import { defineComponent, h, onBeforeUnmount, onMounted, ref, watch, type PropType } from 'vue';
import { init, type KitInstance } from '@kit-assistant/sdk';

/**
 * Kit as a Vue 3 component: `Kit.init` when mounted, `destroy()` when unmounted, and again when `apiKey`, `placement`
 * or the options' content change. With placement 'inline' it renders the element Kit mounts into. Emits `ready`
 * (only listened for when the parent listens), `message` and `error`; `instance()` (exposed) returns the Kit instance.
 */
export const KitAssistant = defineComponent({
  name: 'KitAssistant',
  props: {
    apiKey: { type: String, required: true },
    placement: { type: String as PropType<'launcher' | 'sidebar' | 'inline'>, default: undefined },
    /** Every other Kit.init option (mode, context, endpoint, strings, language, persist, …). */
    options: { type: Object as PropType<Record<string, unknown>>, default: () => ({}) },
    /**
     * `@ready` arrives here as a prop rather than an emitted event, so the component knows whether anyone listens:
     * Kit reads the page as soon as someone listens for `ready` (docs/sdk.md, "When Kit reads the page").
     */
    onReady: { type: Function as PropType<(payload: unknown) => void>, default: undefined },
  },
  emits: ['message', 'error'],
  setup(props, { emit, expose }) {
    const container = ref<HTMLElement | null>(null);
    let kit: KitInstance | null = null;
    let stopReady: (() => void) | null = null;
    const listenReady = (): void => {
      if (kit && props.onReady && !stopReady) stopReady = kit.on('ready', (p: unknown) => props.onReady?.(p));
    };
    const start = (): void => {
      stopReady = null;
      kit?.destroy();
      kit = init({
        ...props.options,
        apiKey: props.apiKey,
        ...(props.placement ? { placement: props.placement } : {}),
        ...(props.placement === 'inline' ? { target: container.value } : {}),
        onMessage: (p: unknown) => emit('message', p),
        onError: (p: unknown) => emit('error', p),
      });
      listenReady();
    };
    onMounted(start);
    watch(() => Boolean(props.onReady), listenReady);
    watch(() => [props.apiKey, props.placement, JSON.stringify(props.options)], start);
    onBeforeUnmount(() => {
      kit?.destroy();
      kit = null;
    });
    expose({ instance: () => kit });
    return () => (props.placement === 'inline' ? h('div', { ref: container }) : null);
  },
});

export default KitAssistant;
