/**
 * /inspect in the pager (pager-screen.ts): what the next request carries for the draft, as
 * `tiller inspect --report` prints it (the same lines), then the pending steers that go with it.
 * Pure: a view state and its lines.
 */
import { inputReportLines, quotedPreview, textPreview } from '../../protocol/input-report.js';
import { countChars } from '../../protocol/limits.js';
import { pendingStateLabel } from '../chat/pending/pending-view.js';
import { wrapWithPrefix } from '../components/row-shapes.js';
import type { InspectorState, PendingInput } from '../store-types.js';

export const INSPECT_DRAFT_TITLE = 'Next request';
export const INSPECT_LAST_SENT_TITLE = 'Last message sent';
export const INSPECT_PREPARING = 'Preparing the request (local media is read and resized as when it is sent)…';
export const PENDING_STEERS_TITLE = 'pending steers that go with it (each is sent at the next tool call):';

export function inspectorLines(view: InspectorState, steers: readonly PendingInput[], width: number): string[] {
  const rows =
    view.error !== null
      ? [`Could not inspect it: ${view.error}`]
      : view.report === null
        ? [INSPECT_PREPARING]
        : inputReportLines(view.report);
  if (view.withSteers && steers.length > 0) {
    rows.push(PENDING_STEERS_TITLE);
    for (const steer of steers) {
      const label = pendingStateLabel(steer, false);
      const chars = countChars(steer.text);
      const media = steer.attachmentCount > 0 ? `, ${steer.attachmentCount} attachment${steer.attachmentCount === 1 ? '' : 's'}` : '';
      rows.push(`  ↳ ${chars} chars${media}  ${quotedPreview(textPreview(steer.text), chars)}${label === null ? '' : ` (${label})`}`);
    }
  }
  const intro = `${view.withSteers ? 'The draft' : 'The last message sent'} as the model gets it: the Responses input, local media processed as when it is sent.`;
  // Continuation rows keep the indent of their line, two cells in.
  return ['', ...[intro, '', ...rows].flatMap((row) => wrapWithPrefix(row, width, '', '  '))];
}
