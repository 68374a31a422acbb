/**
 * The app server's requests to the TUI: an approval goes to the approval prompt, the model's
 * questions to the picker above the composer; each asks for the user's attention when the
 * terminal is unfocused.
 */
import type { AppServerClient, ServerRequestMap } from '../../protocol/api.js';
import type { ApprovalParams, ApprovalQueue } from './approvals/approvals.js';
import { approvalNotification } from './attention.js';
import type { QuestionQueue } from './questions/question-queue.js';

type Handler = Parameters<AppServerClient['setServerRequestHandler']>[0];
type AnyRequest = {
  [M in keyof ServerRequestMap]: { method: M; params: ServerRequestMap[M]['params'] };
}[keyof ServerRequestMap];

type ApprovalRequest = Exclude<AnyRequest, { method: 'item/tool/requestUserInput' }>;
/** What the approval prompt shows for a command's or a patch's request. */
export type PromptParams = (req: ApprovalRequest) => ApprovalParams;

export function serverRequestHandler(
  approvals: ApprovalQueue,
  questions: QuestionQueue,
  notify: (message: string) => void,
  promptParams: PromptParams,
): Handler {
  return (async (req: AnyRequest) => {
    if (req.method === 'item/tool/requestUserInput') {
      const answer = questions.request(req.params);
      notify(`Tiller has a question: ${req.params.questions[0]?.question ?? ''}`.slice(0, 120));
      return answer;
    }
    const params = promptParams(req);
    const answer = approvals.request(params);
    notify(approvalNotification(params.command));
    return await answer;
  }) as Handler;
}
