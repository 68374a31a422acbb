/**
 * The diff highlighter's thread (diff-colours.ts): lowlight with every language, loaded and run
 * here so that neither its load (about 300 ms of grammar registration) nor a grammar's first use
 * ever holds the screen's thread while keys come in. Each request is lines of one language; the
 * answer is each line's hast children, or null where the language is unknown or the line failed.
 */
import { parentPort } from 'node:worker_threads';
import { all, createLowlight } from 'lowlight';

export interface HighlightRequest {
  id: number;
  language: string;
  lines: string[];
}

export interface HighlightAnswer {
  id: number;
  trees: Array<unknown[] | null>;
}

const lowlight = createLowlight(all);

parentPort?.on('message', (request: HighlightRequest) => {
  const known = lowlight.registered(request.language);
  const trees = request.lines.map((line) => {
    if (!known) return null;
    try {
      return lowlight.highlight(request.language, line).children as unknown[];
    } catch {
      return null;
    }
  });
  parentPort?.postMessage({ id: request.id, trees } satisfies HighlightAnswer);
});
