// The embeddable chat widget: one <script src=".../widget.js"> and
//   Tabletalk.create('#tabletalk-chat', { getSessionToken, databaseId, baseUrl })
// on a database that filters rows by tenant (an embed session from the integrator's backend,
// docs/widget.md "Embed sessions"), or on a database without scoping
//   Tabletalk.create('#tabletalk-chat', { apiKey: 'pk_…', databaseId, scopeId, baseUrl })
// or <tabletalk-chat session-url="/my/session" | api-key="pk_…" database-id="…" scope-id="…" base-url="…">.
// It reads the organization's branding, asks with the session or key, shows follow-up answers as
// they stream, renders result rows as a table, and keeps the conversation across reloads.
// Everything lives in a shadow root; text from the API is only ever set as text.
import { type Answer, type Branding, ChatClient, ChatError, newId } from './api.ts';
import { renderChart } from './chart.ts';
import {
  forgetConversation,
  loadConversation,
  type StoredMessage,
  saveConversation,
  storageKey,
} from './storage.ts';
import { STYLES } from './styles.ts';
import { needsTable, renderTable } from './table.ts';
import { type Scheme, themeOf } from './theme.ts';

export interface WidgetOptions {
  /**
   * An embed session: resolves to an `et_…` token that your backend got from
   * POST /api/v1/embed/sessions for the signed-in user. Called again before the token expires.
   * Required on a database that filters rows by tenant (which refuses pk_ keys).
   */
  getSessionToken?: () => Promise<string>;
  /** Or a database (`pk_`) key, for a database without scoping: bound to one database and its allowed origins. */
  apiKey?: string;
  databaseId: string;
  /** With apiKey: `X-Tenant-Id` (a session's tenant is its token's). */
  tenantId?: string;
  /** With apiKey: `X-Scope-Id`, the end user, so that each user's conversations are kept apart. */
  scopeId?: string;
  /** Where the API is served; defaults to the script's own origin. */
  baseUrl?: string;
  /** Start with the chat open. */
  open?: boolean;
  /** The title shown in the header. */
  title?: string;
}

export interface WidgetHandle {
  open(): void;
  close(): void;
  /** Forgets the current conversation; the next question starts a new one. */
  reset(): void;
  destroy(): void;
  /** Resolves once the branding has been applied (or failed to load). */
  ready: Promise<void>;
}

const DEFAULT_BRANDING: Branding = {
  colors: {
    primary: '#2563eb',
    secondary: '#1e293b',
    accent: '#f59e0b',
    text_primary: '#0f172a',
    text_secondary: '#475569',
  },
  widget_theme: {
    position: 'bottom-right',
    greeting_message: 'Hi! Ask me anything about your data.',
    placeholder_text: 'Ask a question…',
    header_color: '#2563eb',
  },
  hide_dialektai_branding: false,
};

const POSITIONS = ['bottom-right', 'bottom-left', 'top-right', 'top-left'];

const CHAT_ICON =
  '<svg viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" aria-hidden="true"><path d="M21 15a2 2 0 0 1-2 2H7l-4 4V5a2 2 0 0 1 2-2h14a2 2 0 0 1 2 2z"/></svg>';

const NEW_ICON =
  '<svg viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2.5" aria-hidden="true"><path d="M12 5v14M5 12h14"/></svg>';

/** The origin the script was loaded from: the default API address. */
const scriptOrigin = (() => {
  const src = (document.currentScript as HTMLScriptElement | null)?.src;
  try {
    return src ? new URL(src).origin : window.location.origin;
  } catch {
    return window.location.origin;
  }
})();

const element = <K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Record<string, string> = {},
  text?: string,
): HTMLElementTagNameMap[K] => {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  if (text !== undefined) node.textContent = text;
  return node;
};

let instances = 0;

export const create = (target: string | HTMLElement, options: WidgetOptions): WidgetHandle => {
  const host = typeof target === 'string' ? document.querySelector<HTMLElement>(target) : target;
  if (!host) throw new Error(`Tabletalk: no element matches ${String(target)}`);
  if (!(options.apiKey || options.getSessionToken) || !options.databaseId)
    throw new Error('Tabletalk: databaseId and getSessionToken (or apiKey) are required');
  const id = `tt${++instances}`;
  const client = new ChatClient({
    apiKey: options.apiKey,
    getSessionToken: options.getSessionToken,
    databaseId: options.databaseId,
    baseUrl: options.baseUrl ?? scriptOrigin,
    tenantId: options.tenantId,
    scopeId: options.scopeId,
  });
  // With a session the tenant and scope are the token's: the kept conversation is keyed by them
  // once the first token is in (see `ready`).
  let key = storageKey(options.databaseId, options.tenantId, options.scopeId);
  const shadow = host.shadowRoot ?? host.attachShadow({ mode: 'open' });
  shadow.replaceChildren();

  // ---- structure -------------------------------------------------------------------------------
  const style = element('style', {}, STYLES);
  const root = element('div', { class: 'root bottom-right', part: 'root' });
  const launcher = element('button', {
    class: 'launcher',
    type: 'button',
    'aria-expanded': 'false',
    'aria-controls': `${id}-panel`,
    'aria-label': 'Open chat',
  });
  launcher.innerHTML = CHAT_ICON;
  const panel = element('section', {
    class: 'panel',
    id: `${id}-panel`,
    role: 'dialog',
    'aria-labelledby': `${id}-title`,
  });
  panel.hidden = true;
  const header = element('header', { class: 'header' });
  const logo = element('img', { class: 'logo', alt: '' });
  logo.hidden = true;
  logo.addEventListener('error', () => {
    logo.hidden = true;
  });
  const title = element('h2', { class: 'title', id: `${id}-title` }, options.title ?? 'Ask us');
  // Its words hide on a narrow panel (styles.ts), leaving the icon and the same accessible name.
  const newButton = element('button', { class: 'new', type: 'button', title: 'New conversation' });
  newButton.innerHTML = NEW_ICON;
  newButton.append(element('span', { class: 'label' }, 'New conversation'));
  const closeButton = element('button', { class: 'close', type: 'button', 'aria-label': 'Close chat' }, '×');
  header.append(logo, title, newButton, closeButton);
  const log = element('div', {
    class: 'log',
    role: 'log',
    'aria-live': 'polite',
    'aria-label': 'Conversation',
    tabindex: '0',
  });
  const status = element('div', { class: 'sr-only', role: 'status', 'aria-live': 'polite' });
  const form = element('form', { class: 'composer' });
  const label = element('label', { class: 'sr-only', for: `${id}-input` }, 'Your question');
  const input = element('textarea', { id: `${id}-input`, rows: '2', maxlength: '4000', autocomplete: 'off' });
  const send = element('button', { type: 'submit' }, 'Send');
  form.append(label, input, send);
  const mark = element('div', { class: 'mark' }, 'Powered by tabletalk');
  panel.append(header, log, status, form, mark);
  root.append(launcher, panel);
  shadow.append(style, root);

  // ---- branding ---------------------------------------------------------------------------------
  let branding = DEFAULT_BRANDING;
  const darkQuery = window.matchMedia?.('(prefers-color-scheme: dark)');
  const schemeOf = (): Scheme => (darkQuery?.matches ? 'dark' : 'light');
  const applyBranding = (): void => {
    const scheme = schemeOf();
    for (const [name, value] of Object.entries(themeOf(branding, scheme)))
      root.style.setProperty(name, value);
    root.dataset.scheme = scheme;
    const position = POSITIONS.includes(branding.widget_theme.position)
      ? branding.widget_theme.position
      : 'bottom-right';
    root.className = `root ${position}`;
    input.placeholder = branding.widget_theme.placeholder_text;
    const logoUrl = scheme === 'dark' ? (branding.logo_dark_url ?? branding.logo_url) : branding.logo_url;
    if (logoUrl) {
      logo.hidden = false;
      if (logo.getAttribute('src') !== logoUrl) logo.src = logoUrl;
    } else logo.hidden = true;
    mark.hidden = branding.hide_dialektai_branding;
  };
  darkQuery?.addEventListener?.('change', applyBranding);
  applyBranding();

  // ---- conversation ------------------------------------------------------------------------------
  let conversation = loadConversation(key);
  let busy = false;
  let controller: AbortController | undefined;

  const scrollToEnd = (): void => {
    log.scrollTop = log.scrollHeight;
  };

  const messageElement = (message: StoredMessage): HTMLElement => {
    const node = element('div', { class: `msg ${message.role}` });
    if (message.role === 'assistant' && message.queryType === 'clarification') {
      node.classList.add('clarification');
      node.append(element('span', { class: 'label' }, 'A question for you'));
    }
    node.append(element('span', { class: 'text' }, message.text));
    const chart = message.chart ? renderChart(message.chart) : undefined;
    if (message.results && needsTable(message.results)) {
      node.classList.add('wide');
      const table = renderTable(message.results, message.truncated ?? false);
      if (chart) {
        // The chart first; its rows stay one click away as a table.
        const rows = element('details', { class: 'table-toggle' });
        rows.append(element('summary', {}, 'Show the rows as a table'), table);
        node.append(chart, rows);
      } else node.append(table);
    }
    // What was understood, under the answer, so that a misreading shows.
    if (message.interpretation) node.append(element('span', { class: 'label' }, message.interpretation));
    if (message.messageId) node.append(ratingButtons(message));
    return node;
  };

  /** Thumbs up and down under an answer: one rating per answer, a second replaces it. */
  const ratingButtons = (message: StoredMessage): HTMLElement => {
    const group = element('div', {
      class: 'rating',
      role: 'group',
      'aria-label': 'Was this answer helpful?',
    });
    for (const [rating, label, symbol] of [
      ['up', 'Helpful', '▲ Helpful'],
      ['down', 'Not helpful', '▼ Not helpful'],
    ] as const) {
      const button = element(
        'button',
        { type: 'button', 'aria-label': label, 'aria-pressed': String(message.rating === rating) },
        symbol,
      );
      button.addEventListener('click', () => {
        const kept = conversation;
        const id = message.messageId;
        if (!kept || !id) return;
        void client.feedback(kept.conversationId, id, rating).then(
          () => {
            message.rating = rating;
            for (const other of group.querySelectorAll('button')) {
              other.setAttribute('aria-pressed', String(other === button));
            }
            saveConversation(key, kept);
            status.textContent = 'Thank you for the feedback.';
          },
          () => {
            status.textContent = 'The feedback could not be sent.';
          },
        );
      });
      group.append(button);
    }
    return group;
  };

  /** The latest answer's follow-up questions, as buttons that ask them. */
  const suggestionButtons = (suggestions: readonly string[]): HTMLElement => {
    const group = element('div', {
      class: 'suggestions',
      role: 'group',
      'aria-label': 'Suggested questions',
    });
    for (const suggestion of suggestions) {
      const button = element('button', { type: 'button', class: 'suggestion' }, suggestion);
      button.addEventListener('click', () => {
        group.remove();
        void ask(suggestion);
      });
      group.append(button);
    }
    return group;
  };

  const greeting = (): HTMLElement =>
    messageElement({ role: 'assistant', text: branding.widget_theme.greeting_message });

  const renderAll = (): void => {
    log.replaceChildren(greeting(), ...(conversation?.messages ?? []).map(messageElement));
    scrollToEnd();
  };

  const remember = (...messages: StoredMessage[]): void => {
    if (!conversation) return;
    conversation.messages.push(...messages);
    saveConversation(key, conversation);
  };

  const setBusy = (value: boolean): void => {
    busy = value;
    send.disabled = value;
    form.setAttribute('aria-busy', String(value));
  };

  const showError = (error: ChatError, question: string): void => {
    const node = element('div', { class: 'msg error', role: 'alert' });
    node.append(element('span', { class: 'text' }, error.message));
    if (error.retryable) {
      const retry = element('button', { type: 'button' }, 'Try again');
      retry.addEventListener('click', () => {
        node.remove();
        void ask(question, false);
      });
      node.append(element('br'), retry);
    }
    log.append(node);
    scrollToEnd();
  };

  const answerMessage = (answer: Answer): StoredMessage => ({
    role: 'assistant',
    text: answer.message,
    queryType: answer.query_type,
    ...(answer.results?.length
      ? { results: answer.results, truncated: answer.results_truncated ?? false }
      : {}),
    ...(answer.row_count === undefined ? {} : { rowCount: answer.row_count }),
    ...(answer.interpretation ? { interpretation: answer.interpretation } : {}),
    ...(answer.chart ? { chart: answer.chart } : {}),
    ...(answer.message_id ? { messageId: answer.message_id } : {}),
    ...(answer.suggestions?.length ? { suggestions: answer.suggestions } : {}),
  });

  const ask = async (question: string, showQuestion = true): Promise<void> => {
    if (busy || !question.trim()) return;
    setBusy(true);
    controller = new AbortController();
    const userMessage: StoredMessage = { role: 'user', text: question };
    if (showQuestion) {
      log.append(messageElement(userMessage));
      scrollToEnd();
    }
    const pending = element('div', { class: 'msg assistant', 'aria-busy': 'true' });
    const text = element('span', { class: 'text' });
    // The step the service is on ("Writing the query…") until the first words arrive.
    const progress = element('span', { class: 'progress' });
    pending.append(progress, text);
    log.append(pending);
    scrollToEnd();
    status.textContent = 'Answering…';
    try {
      const streamInto = (conversationId: string) =>
        client.stream(
          conversationId,
          question,
          {
            onContent: (chunk) => {
              progress.remove();
              text.textContent += chunk;
              scrollToEnd();
            },
            onStatus: (message) => {
              if (text.textContent === '') progress.textContent = message;
              status.textContent = message;
            },
          },
          controller?.signal,
        );
      let answer: Answer;
      try {
        answer = await streamInto(conversation?.conversationId ?? newId());
      } catch (error) {
        // The kept conversation is gone (deleted, expired): start a new one with this question.
        if (!(conversation && error instanceof ChatError && error.kind === 'not-found')) throw error;
        conversation = undefined;
        text.textContent = '';
        answer = await streamInto(newId());
      }
      conversation ??= { conversationId: answer.conversation_id, messages: [] };
      const stored = answerMessage(answer);
      pending.replaceWith(messageElement(stored));
      log.querySelector('.suggestions')?.remove();
      if (stored.suggestions?.length) log.append(suggestionButtons(stored.suggestions));
      remember(userMessage, stored);
      status.textContent = 'Answer complete.';
    } catch (error) {
      pending.remove();
      if ((error as Error).name === 'AbortError') return;
      const failure =
        error instanceof ChatError
          ? error
          : new ChatError('server', 'Something went wrong while answering. Please try again.');
      status.textContent = failure.message;
      showError(failure, question);
    } finally {
      setBusy(false);
      scrollToEnd();
    }
  };

  // ---- interaction -------------------------------------------------------------------------------
  const open = (): void => {
    panel.hidden = false;
    launcher.setAttribute('aria-expanded', 'true');
    launcher.setAttribute('aria-label', 'Close chat');
    scrollToEnd();
    input.focus();
  };
  const close = (): void => {
    panel.hidden = true;
    launcher.setAttribute('aria-expanded', 'false');
    launcher.setAttribute('aria-label', 'Open chat');
    launcher.focus();
  };
  const reset = (): void => {
    controller?.abort();
    setBusy(false);
    conversation = undefined;
    forgetConversation(key);
    renderAll();
    status.textContent = 'New conversation started.';
    input.focus();
  };

  launcher.addEventListener('click', () => (panel.hidden ? open() : close()));
  closeButton.addEventListener('click', close);
  newButton.addEventListener('click', reset);
  panel.addEventListener('keydown', (event) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      close();
    }
  });
  input.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      form.requestSubmit();
    }
  });
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const question = input.value.trim();
    if (!question || busy) return;
    input.value = '';
    void ask(question);
  });

  renderAll();
  const ready = client
    .branding()
    .then((loaded) => {
      branding = loaded;
      applyBranding();
    })
    .catch(() => undefined)
    .finally(() => {
      const claims = client.claims;
      if (claims) {
        key = storageKey(options.databaseId, claims.tnt, claims.scp);
        if (!busy) conversation = loadConversation(key);
      }
      renderAll();
      root.setAttribute('data-ready', 'true');
    });
  if (options.open) open();

  return {
    open,
    close,
    reset,
    destroy: () => {
      controller?.abort();
      darkQuery?.removeEventListener?.('change', applyBranding);
      shadow.replaceChildren();
    },
    ready,
  };
};

/**
 * `<tabletalk-chat session-url="/my/session" database-id="…" base-url="…" open>`: POSTs to your
 * session-url (same origin, with cookies) for `{token}` or `{data: {token}}`; or `api-key="pk_…"`
 * with `tenant-id` and `scope-id` on a database without scoping.
 */
class TabletalkChat extends HTMLElement {
  private handle: WidgetHandle | undefined;

  connectedCallback(): void {
    const attribute = (name: string) => this.getAttribute(name) ?? undefined;
    const optional = <K extends string>(name: K, value: string | undefined) =>
      (value === undefined ? {} : { [name]: value }) as Partial<Record<K, string>>;
    const sessionUrl = attribute('session-url');
    this.handle = create(this, {
      ...optional('apiKey', attribute('api-key')),
      ...(sessionUrl
        ? {
            getSessionToken: async () => {
              const response = await fetch(sessionUrl, { method: 'POST', credentials: 'same-origin' });
              if (!response.ok) throw new Error(`session-url answered ${response.status}`);
              const body = (await response.json()) as { token?: string; data?: { token?: string } };
              return body.token ?? body.data?.token ?? '';
            },
          }
        : {}),
      databaseId: attribute('database-id') ?? '',
      ...optional('tenantId', attribute('tenant-id')),
      ...optional('scopeId', attribute('scope-id')),
      ...optional('baseUrl', attribute('base-url')),
      ...optional('title', attribute('title')),
      open: this.hasAttribute('open'),
    });
  }

  disconnectedCallback(): void {
    this.handle?.destroy();
    this.handle = undefined;
  }
}

if (!customElements.get('tabletalk-chat')) customElements.define('tabletalk-chat', TabletalkChat);

const api = { create, version: '1' };
declare global {
  interface Window {
    Tabletalk: typeof api;
  }
}
window.Tabletalk = api;
