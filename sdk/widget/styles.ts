/**
 * The panel's stylesheet, added to the shadow root after the shell's (shell.ts: the host and the launcher). Lazy
 * chunks bring their own: rich markdown (tables, quotes, code), the passage preview, the highlight, the thumbs.
 * Sizes are px, not rem: the page controls the root font size.
 */
export const WIDGET_CSS = `
:host{--_bg:var(--kit-bg,#fff);--_fg:var(--kit-fg,#111827);--_r:var(--kit-radius,14px);--_ln:#1d4ed8;--_er:#b91c1c;--_rf:#b45309;--_w:var(--kit-sidebar-width,400px);
--_mu:color-mix(in srgb,var(--_fg) 68%,var(--_bg));--_bd:color-mix(in srgb,var(--_fg) 16%,var(--_bg));--_s:color-mix(in srgb,var(--_fg) 6%,var(--_bg))}
@media (prefers-color-scheme:dark){:host(:not([data-scheme=light])){--_bg:var(--kit-bg,#111827);--_fg:var(--kit-fg,#f3f4f6);--_ln:#93c5fd;--_er:#fca5a5;--_rf:#fbbf24}}
:host([data-scheme=dark]){color-scheme:dark!important;--_bg:var(--kit-bg,#111827);--_fg:var(--kit-fg,#f3f4f6);--_ln:#93c5fd;--_er:#fca5a5;--_rf:#fbbf24}
:host([data-scheme=light]){color-scheme:light!important}
.panel,.tip{font:15px/1.5 var(--kit-font,system-ui,-apple-system,"Segoe UI",Roboto,sans-serif)}
button{font:inherit;color:inherit;cursor:pointer;margin:0}
.panel{position:fixed;inset:auto;inset-inline-end:20px;inset-block-end:88px;margin:0;padding:0;width:400px;max-width:calc(100vw - 40px);height:600px;max-height:calc(100vh - 108px);display:flex;flex-direction:column;overflow:hidden;border:1px solid var(--_bd);border-radius:var(--_r);background:var(--_bg);color:var(--_fg);box-shadow:0 12px 40px rgb(0 0 0/.25);z-index:1}
:host([data-pos=left]) .panel{inset-inline-end:auto;inset-inline-start:20px}
:host([data-p=sidebar]) .panel{inset:0;inset-inline-start:auto;width:var(--_w);max-width:100vw;height:100%;max-height:none;border-radius:0;border-width:0;border-inline-start-width:1px}
:host([data-p=sidebar][data-pos=left]) .panel{inset-inline-end:auto;inset-inline-start:0;border-inline-start-width:0;border-inline-end-width:1px}
:host([data-p=inline]) .panel{position:relative;inset:auto;width:100%;max-width:none;height:var(--kit-inline-height,480px);max-height:none;box-shadow:none}
dialog:not([open]){display:none}
dialog::backdrop{background:rgb(0 0 0/.15)}
@media (max-width:480px),(max-height:500px){dialog.panel,:host([data-p=sidebar]) .panel{inset:0;width:100%;height:100%;max-width:none;max-height:none;border:0;border-radius:0}}
.hd{display:flex;align-items:center;gap:4px;padding:10px 10px 10px 16px;border-bottom:1px solid var(--_bd)}
h2{flex:1;margin:0;font-size:16px;font-weight:600;overflow-wrap:anywhere}
.x{width:36px;height:36px;padding:0;border:0;border-radius:8px;background:none;display:grid;place-items:center}
.x svg{width:20px;height:20px}
.x:hover,.stop:hover,.sq:hover,.tools button:hover{background:var(--_s)}
[hidden]{display:none!important}
.st{margin:0;font-size:13px;color:var(--_mu)}
.st:not(:empty){padding:6px 16px 0}
.bar{height:3px;margin:6px 16px 0;background:var(--_s);border-radius:2px;overflow:hidden}
.bar i{display:block;height:100%;width:0;background:var(--_a)}
.log{flex:1;min-height:0;overflow:hidden auto;overscroll-behavior:contain;padding:16px;display:flex;flex-direction:column;gap:12px}
.welcome{margin:auto 0;text-align:center;color:var(--_mu);font-size:14px}
.intro{margin:0 0 12px}
.starters ul{list-style:none;margin:0;padding:0;display:flex;flex-direction:column;gap:6px;align-items:center}
.sq{border:1px solid var(--_bd);border-radius:999px;background:var(--_bg);padding:6px 14px;font-size:14px;color:var(--_fg);text-align:start}
.sq:disabled{opacity:.5;cursor:default}
.msg{max-width:88%;padding:8px 12px;border-radius:calc(var(--_r)*.8);overflow-wrap:anywhere}
.b>*{unicode-bidi:plaintext}
.me{align-self:flex-end;background:var(--_a);color:var(--_af);white-space:pre-wrap}
.bot{align-self:flex-start;background:var(--_s)}
.msg p,.msg ul,.msg ol,.msg pre,.msg blockquote,.msg .tw{margin:0 0 .5em}
.msg>:last-child,.b>:last-child{margin-bottom:0}
.msg ul,.msg ol{padding-inline-start:1.4em}
code{font:.9em ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;background:var(--_bd);padding:0 .25em;border-radius:4px}
a{color:var(--_ln)}
.ci{display:inline-block;min-width:1.5em;margin:0 1px;padding:0 4px;border-radius:6px;background:var(--_bd);color:var(--_fg);font-size:.75em;line-height:1.5;text-align:center;text-decoration:none;vertical-align:.15em}
.ci:hover{background:var(--_a);color:var(--_af)}
.live .b:empty::before{content:"\\2022\\2022\\2022";letter-spacing:2px;color:var(--_mu)}
.src{margin-top:8px;padding-top:6px;border-top:1px solid var(--_bd);font-size:13px}
.src p{margin:0;font-weight:600;color:var(--_mu)}
.src ol{margin:0;padding-inline-start:1.6em}
.tools{display:flex;flex-wrap:wrap;gap:4px;align-items:center;margin-top:6px}
.cpa{font-size:12px;border:1px solid var(--_bd);border-radius:999px;background:none;padding:1px 10px;color:var(--_mu)}
.refusal{background:color-mix(in srgb,var(--_rf) 12%,var(--_bg));border-inline-start:3px solid var(--_rf)}
.refusal p:first-child{font-style:italic}
.err{color:var(--_er);background:color-mix(in srgb,var(--_er) 10%,var(--_bg))}
.bot .err{margin:.5em 0 0;padding:0;background:none}
.sr{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%);white-space:nowrap}
.composer{display:flex;flex-direction:column;gap:8px;padding:10px 12px 12px;border-top:1px solid var(--_bd)}
.stop{align-self:center;display:flex;align-items:center;gap:8px;padding:4px 14px;border:1px solid var(--_bd);border-radius:999px;background:var(--_bg);font-size:13px}
.stop::before{content:"";width:9px;height:9px;border-radius:2px;background:currentColor}
.row{display:flex;align-items:flex-end;gap:8px}
textarea{flex:1;min-width:0;min-height:42px;max-height:140px;field-sizing:content;resize:none;margin:0;padding:9px 12px;border:1px solid var(--_bd);border-radius:calc(var(--_r)*.7);background:var(--_bg);color:inherit;font:inherit;line-height:1.4}
textarea::placeholder{color:var(--_mu)}
.send{width:42px;height:42px;flex:none;padding:0;border:0;border-radius:50%;background:var(--_a);color:var(--_af);display:grid;place-items:center}
.send:disabled{opacity:.4;cursor:default}
.notice{font-size:12px;color:var(--_mu);margin:0;padding:6px 16px 0}
@media (prefers-reduced-motion:no-preference){dialog[open]{animation:kit-in .16s ease-out}}
@keyframes kit-in{from{opacity:0;transform:translateY(8px)}}
`;
