import { defineComponent, h, onBeforeUnmount, onMounted, ref, watch, type PropType } from 'vue';
import { init, type KitInstance } from '@kit-assistant/sdk';

/**
 * Kit as a Vue 3 component: `Kit.init` when mounted, `destroy()` when unmounted, and again when `apiKey`, `placement`
 * or the options' content change. With placement 'inline' it renders the element Kit mounts into. Emits `ready`,
 * `message` and `error`; `instance()` (exposed) returns the Kit instance.
 */
export const KitAssistant = defineComponent({
  name: 'KitAssistant',
  props: {
    apiKey: { type: String, required: true },
    placement: { type: String as PropType<'launcher' | 'sidebar' | 'inline'>, default: undefined },
    /** Every other Kit.init option (mode, context, endpoint, strings, language, persist, …). */
    options: { type: Object as PropType<Record<string, unknown>>, default: () => ({}) },
  },
  emits: ['ready', 'message', 'error'],
  setup(props, { emit, expose }) {
    const container = ref<HTMLElement | null>(null);
    let kit: KitInstance | null = null;
    const start = (): void => {
      kit?.destroy();
      kit = init({
        ...props.options,
        apiKey: props.apiKey,
        ...(props.placement ? { placement: props.placement } : {}),
        ...(props.placement === 'inline' ? { target: container.value } : {}),
        onReady: (p: unknown) => emit('ready', p),
        onMessage: (p: unknown) => emit('message', p),
        onError: (p: unknown) => emit('error', p),
      });
    };
    onMounted(start);
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
