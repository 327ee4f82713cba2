/**
 * Markdown as test/offline/docs.test.ts reads it: the prose apart from the fenced blocks, the
 * inline code spans, the anchors GitHub gives the headings. Positions are lines of the document.
 */

/** Something a document says, where it says it. */
export interface Found {
  doc: string;
  line: number;
  text: string;
}

export interface Block {
  lang: string;
  text: string;
  /** The line of the block's first line of text. */
  line: number;
}

export const at = ({ doc, line, text }: Found) => `${doc}:${line} ${text}`;
export const lineOf = (text: string, index: number) => text.slice(0, index).split('\n').length;

/** A document with its fenced blocks (in a list item too) blanked out, line numbers kept, and those blocks. */
export function partsOf(text: string): { prose: string; blocks: Block[] } {
  const blocks: Block[] = [];
  const prose = text.replace(/^ *```(\w*)\n([\s\S]*?)^ *```$/gm, (whole, lang: string, body: string, index: number) => {
    blocks.push({ lang, text: body, line: lineOf(text, index) + 1 });
    return whole.replace(/[^\n]/g, '');
  });
  return { prose, blocks };
}

/** The inline code spans of a document, outside its fenced blocks. */
export function spansOf(doc: string, text: string): Found[] {
  const { prose } = partsOf(text);
  return [...prose.matchAll(/`([^`\n]+)`/g)].map((m) => ({ doc, line: lineOf(prose, m.index), text: m[1]! }));
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
const anchorOf = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');

/** The anchors of a document's headings (`## 3. The cost report`: `3-the-cost-report`). */
export const anchorsOf = (text: string) =>
  new Set([...partsOf(text).prose.matchAll(/^#{1,6} (.+)$/gm)].map((m) => anchorOf(m[1]!.replace(/`/g, ''))));
