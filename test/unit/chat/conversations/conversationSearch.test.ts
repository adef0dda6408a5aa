import * as assert from 'node:assert/strict';
import {
  cleanRename,
  plainText,
  relativeDate,
  searchConversations,
  searchTextOf,
  SEARCH_TEXT_MAX,
  snippetAt,
  titleFrom,
  type ListEntry,
} from '../../../../src/chat/conversations/conversationSearch';
import { ConversationStore } from '../../../../src/chat/conversations/conversationStore';
import { MemoryBackend } from '../../../../src/chat/conversations/conversationStorage';
import type { AssistantRecord, Conversation } from '../../../../src/chat/conversations/conversationTranscript';
import { addTurn } from '../../helpers';
import { assertLinear, LINEAR_TEST_TIMEOUT_MS, repeatTo } from '../../linearGrowth';

describe('chat: conversation titles and search', () => {
  it('titles a conversation from its first message without markdown or extra whitespace', () => {
    assert.equal(titleFrom('## How do I **read** a `file`?\n\n'), 'How do I read a file?');
    assert.equal(titleFrom('> quoted\n- [the docs](https://example.com/x) say _this_'), 'quoted the docs say this');
    assert.equal(titleFrom('```ts\nconst x = 1;\n```\nwhy?'), 'const x = 1; why?');
    assert.equal(titleFrom('  \n\t '), 'New chat');
    assert.equal(titleFrom('```\n```'), 'New chat');
    const long = titleFrom('explain '.repeat(30));
    assert.ok(long.length <= 60 && long.endsWith('…') && !long.includes('  '), long);
    assert.equal(titleFrom('snake_case_name and 2*3*4'), 'snake_case_name and 2*3*4', 'identifiers and arithmetic are kept');
  });

  it('keeps a rename as typed (whitespace collapsed, bounded), refuses an empty one', () => {
    assert.equal(cleanRename('  My   **plan**  '), 'My **plan**');
    assert.equal(cleanRename('   '), undefined);
    assert.ok((cleanRename('x'.repeat(500)) ?? '').length <= 120);
  });

  it('keeps a bounded search text: title, then what the user asked, then finished answers', () => {
    const c: Conversation = { id: 'c', title: 'Title', createdAt: 0, updatedAt: 0, messages: [], pinned: [], pending: [], draft: '' };
    addTurn(c, 'first **question**', 'an answer about zebras');
    addTurn(c, 'second question', 'still streaming about giraffes', 'streaming');
    const text = searchTextOf(c);
    assert.match(text, /first question/);
    assert.match(text, /second question/);
    assert.match(text, /zebras/);
    assert.doesNotMatch(text, /giraffes/, 'a streaming answer is left out (the index is not rewritten per token)');
    assert.ok(text.indexOf('second question') < text.indexOf('zebras'), 'user messages first');
    for (let i = 0; i < 50; i++) addTurn(c, `question ${i} ${'filler '.repeat(30)}`, 'answer '.repeat(200));
    assert.ok(searchTextOf(c).length <= SEARCH_TEXT_MAX + 60, `bounded: ${searchTextOf(c).length}`);
  });

  it('searches titles and content, every word, case-insensitive; newest first, title matches before content matches', () => {
    const entries: ListEntry[] = [
      { id: 'old-title', title: 'Webpack config', updatedAt: 1, text: 'webpack config\nhow to split chunks' },
      { id: 'new-content', title: 'Build question', updatedAt: 5, text: 'build question\nmy WEBPACK build is slow' },
      { id: 'newer-title', title: 'webpack loaders', updatedAt: 3, text: 'webpack loaders' },
      { id: 'other', title: 'Go channels', updatedAt: 9, text: 'go channels\nselect statement' },
      { id: 'no-text', title: 'Legacy', updatedAt: 2 },
    ];
    assert.deepEqual(
      searchConversations(entries, '').map((m) => m.entry.id),
      ['other', 'new-content', 'newer-title', 'no-text', 'old-title'],
      'newest first',
    );
    const r = searchConversations(entries, 'WebPack');
    assert.deepEqual(
      r.map((m) => m.entry.id),
      ['newer-title', 'old-title', 'new-content'],
    );
    assert.deepEqual(
      r.map((m) => m.in),
      ['title', 'title', 'content'],
    );
    assert.match(r[2]!.snippet ?? '', /WEBPACK build is slow/, 'the snippet keeps the original case');
    assert.deepEqual(
      searchConversations(entries, 'split webpack').map((m) => m.entry.id),
      ['old-title'],
      'every word must match',
    );
    assert.deepEqual(
      searchConversations(entries, 'select').map((m) => m.entry.id),
      ['other'],
    );
    assert.deepEqual(searchConversations(entries, 'nothing-like-this'), []);
  });

  it('cuts a snippet around the match at word boundaries', () => {
    const text = 'alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigma tau upsilon phi chi psi omega';
    const s = snippetAt(text, text.indexOf('sigma'), 5, 40);
    assert.match(s, /sigma/);
    assert.ok(s.startsWith('…') && s.endsWith('…'), s);
    assert.equal(snippetAt('short text', 0, 5), 'short text');
  });

  it('says when a conversation was last updated, relative to now', () => {
    const now = new Date(2026, 10, 23, 15, 0).getTime();
    assert.equal(relativeDate(now - 10_000, now), 'just now');
    assert.equal(relativeDate(now - 5 * 60_000, now), '5 min ago');
    assert.equal(relativeDate(now - 3 * 3600_000, now), '3 hours ago');
    assert.equal(relativeDate(new Date(2026, 10, 22, 23, 0).getTime(), now), 'yesterday');
    assert.equal(relativeDate(new Date(2026, 10, 19, 12, 0).getTime(), now), '4 days ago');
    assert.equal(relativeDate(new Date(2026, 2, 12).getTime(), now), '12 Mar');
    assert.equal(relativeDate(new Date(2025, 2, 12).getTime(), now), '12 Mar 2025');
  });

  it('plain text drops html tags and images but keeps their words', () => {
    assert.equal(plainText('<b>bold</b> ![a cat](cat.png) end'), 'bold a cat end');
  });
});

describe('chat: conversation store, search text and rename', () => {
  let clock = 1000;
  const now = () => ++clock;

  it("keeps each conversation's search text in the index, so the list reads no conversation file", async () => {
    const backend = new MemoryBackend();
    const s1 = await ConversationStore.open(backend, { now, debounceMs: 5 });
    addTurn(s1.active, 'About zebras', 'They have stripes and live in Africa.');
    s1.changed(s1.active, { touch: true });
    const b = s1.create();
    addTurn(b, 'About lions', 'They roar.');
    s1.changed(b, { touch: true });
    await s1.close();
    const index = JSON.parse(backend.files.get('index.json')!) as { conversations: { title: string; text?: string }[] };
    assert.match(index.conversations.find((c) => c.title === 'About zebras')?.text ?? '', /stripes/);

    let reads = 0;
    const read = backend.read.bind(backend);
    backend.read = async (name) => {
      if (name.startsWith('conversation-')) reads++;
      return read(name);
    };
    const s2 = await ConversationStore.open(backend, { now });
    const readsAtOpen = reads;
    const hits = searchConversations(s2.searchEntries(), 'stripes');
    assert.deepEqual(
      hits.map((h) => h.entry.title),
      ['About zebras'],
    );
    assert.equal(reads, readsAtOpen, 'searching read no conversation file');
    await s2.close();
  });

  it('renames a conversation; the title is kept when the first message is edited and after a reopen', async () => {
    const backend = new MemoryBackend();
    const s1 = await ConversationStore.open(backend, { now, debounceMs: 5 });
    addTurn(s1.active, 'first message', 'answer');
    s1.changed(s1.active, { touch: true });
    const id = s1.active.id;
    assert.equal(await s1.rename(id, 'My plan'), true);
    assert.equal(s1.active.renamed, true);
    assert.equal(s1.list()[0]!.title, 'My plan');
    assert.equal(await s1.rename('unknown-id', 'x'), false);
    await s1.close();
    const s2 = await ConversationStore.open(backend, { now });
    assert.equal(s2.active.title, 'My plan');
    assert.equal(s2.active.renamed, true);
    assert.match(s2.searchEntries()[0]!.text ?? '', /My plan/);
    await s2.close();
  });

  it('fills the search text of conversations an older version indexed without it', async () => {
    const backend = new MemoryBackend();
    const s1 = await ConversationStore.open(backend, { now, debounceMs: 5 });
    addTurn(s1.active, 'Old one', 'mentions kangaroos');
    s1.changed(s1.active, { touch: true });
    await s1.close();
    const index = JSON.parse(backend.files.get('index.json')!) as { conversations: { text?: string }[] };
    for (const c of index.conversations) delete c.text;
    backend.files.set('index.json', JSON.stringify(index));
    const s2 = await ConversationStore.open(backend, { now, debounceMs: 5 });
    assert.deepEqual(searchConversations(s2.searchEntries(), 'kangaroos'), []);
    assert.equal(await s2.fillSearchText(), 1);
    assert.equal(searchConversations(s2.searchEntries(), 'kangaroos').length, 1);
    await s2.close();
    assert.match(backend.files.get('index.json')!, /kangaroos/, 'written back to the index');
  });

  it('a deleted conversation leaves the search entries (and its tombstone stays)', async () => {
    const backend = new MemoryBackend();
    const s1 = await ConversationStore.open(backend, { now, debounceMs: 5 });
    addTurn(s1.active, 'Doomed', 'text');
    s1.changed(s1.active, { touch: true });
    const doomed = s1.active.id;
    const keep = s1.create();
    addTurn(keep, 'Kept', 'text');
    s1.changed(keep, { touch: true });
    await s1.delete(doomed);
    assert.deepEqual(
      s1.searchEntries().map((e) => e.title),
      ['Kept'],
    );
    await s1.close();
    assert.ok(backend.files.has(`conversation-${doomed}.deleted`));
    const s2 = await ConversationStore.open(backend, { now });
    assert.deepEqual(searchConversations(s2.searchEntries(), 'doomed'), []);
    await s2.close();
  });
});

describe('chat: titles and snippets are plain text', () => {
  const HIDDEN = /[\u0000-\u0008\u000e-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\ufeff]/;
  const hostile = 'Fix $(alert) the \u202Egnp.exe\u202C bug\u0000 in \u2066main\u2069 \u001b[31mred\u200f now $(sync~spin)';
  const clean = (s: string) => {
    assert.ok(!/\$\(/.test(s), `icon syntax left: ${JSON.stringify(s)}`);
    assert.ok(!HIDDEN.test(s), `hidden character left: ${JSON.stringify(s)}`);
  };

  it('a derived title has no icon syntax, bidi or control characters', () => {
    const t = titleFrom(hostile);
    clean(t);
    assert.match(t, /^Fix \$\u200b\(alert\) the gnp\.exe bug in main \[31mred now/);
  });

  it('a renamed title is cleaned the same way', () => {
    const t = cleanRename(hostile)!;
    clean(t);
    assert.equal(cleanRename('\u202e\u2066\u0000 '), undefined, 'nothing visible left');
  });

  it('a search snippet is cleaned the same way', () => {
    const text = `${'intro words '.repeat(4)}${hostile} and then the needle is here ${'\u202e'.repeat(3)}$(x)`;
    const snippet = snippetAt(text, text.indexOf('needle'), 6);
    clean(snippet);
    assert.ok(snippet.includes('needle'));
    const [match] = searchConversations([{ id: 'a', title: 'x', updatedAt: 1, text }], 'needle');
    clean(match!.snippet!);
  });
});

describe('chat: titles and search text on hostile text grow linearly', function () {
  this.timeout(LINEAR_TEST_TIMEOUT_MS);
  it('keeps links, images and tags as before, also with one level of parentheses in a URL', () => {
    assert.equal(plainText('see [the docs](https://en.wikipedia.org/wiki/Foo_(bar)) and ![a chart](c.png "t")'), 'see the docs and a chart');
    assert.equal(plainText('<b>bold</b> [x]'), 'bold [x]');
    assert.equal(plainText('[a [b] c](u)'), '[a [b] c](u)');
  });

  const conversation = (text: string): Conversation => {
    const c: Conversation = { id: 'c', title: 'New chat', createdAt: 1, updatedAt: 1, messages: [], pinned: [], pending: [], draft: '' };
    addTurn(c, text, text);
    return c;
  };
  for (const unit of ['[', '![', '<', '<a', '[a](', '[](', '](', '<title', 'a<', '*', '_', '> ', '1', '#', ' ', '`']) {
    it(`titleFrom, searchTextOf and plainText on 8K to 128K of ${JSON.stringify(unit)}`, () => {
      assertLinear('plainText', plainText, (n) => repeatTo(unit, n));
      assertLinear(
        'titleFrom',
        (s) => titleFrom(s),
        (n) => repeatTo(unit, n),
      );
      assertLinear(
        'searchTextOf',
        (c) => searchTextOf(conversation(c)),
        (n) => repeatTo(unit, n),
      );
    });
  }

  it('a streamed delta leaves the conversation list entry as it was (the earlier answers are not read again)', async () => {
    const store = await ConversationStore.open(new MemoryBackend(), { debounceMs: 5 });
    const c = store.active;
    addTurn(c, 'q', '['.repeat(32_000));
    store.changed(c, { touch: true });
    c.messages.push({
      id: 'a9',
      role: 'assistant',
      parts: [{ kind: 'text', text: '' }],
      status: 'streaming',
      model: 'm',
      channel: 'default',
      createdAt: 3,
      wire: [],
    });
    store.changed(c, { touch: true });
    const entry = store.searchEntries().find((e) => e.id === c.id);
    for (let i = 0; i < 50; i++) {
      (c.messages.at(-1) as AssistantRecord).parts[0] = { kind: 'text', text: `delta ${i}` };
      store.changed(c);
    }
    assert.equal(
      store.searchEntries().find((e) => e.id === c.id),
      entry,
    );
    await store.close();
  });
});
