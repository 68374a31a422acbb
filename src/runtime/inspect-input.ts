/**
 * The inspector of the real request (`tiller/inspectInput`, `tiller inspect`): what one message
 * becomes in the next request, by the runtime's own pieces: its conversion of UserInput to Responses
 * items (local media read, resized and encoded as a turn does), its skill resolution and the hooks
 * configured to run first. Nothing is recorded or sent.
 */
import { describeParts, type TillerInputReport } from '../protocol/input-report.js';
import { countChars, textCharCount } from '../protocol/limits.js';
import { fromUserInput, type ResponseItem } from '../protocol/response-items.js';
import { MAX_USER_INPUT_TEXT_CHARS, type UserInput } from '../protocol/user-input.js';
import { resolveSkills, skillInjectionText } from './context/skills.js';

export type PrepareInput = (content: UserInput[]) => Promise<ResponseItem[]>;

/** The conversion a Session uses unless it was given another (SessionOptions.prepareUserInput). */
export const prepareInput: PrepareInput = (content) => fromUserInput(content, { localImagePreparation: 'process' });

export interface InspectOptions {
  skillsDir: string;
  /** UserPromptSubmit hook commands (TillerConfig.userPromptSubmitHooks). */
  hooks: readonly string[];
  /** The thread's own conversion (Session.prepareUserInput); default prepareInput. */
  prepare?: PrepareInput;
}

export interface Inspection {
  /** The Responses input items as the turn would record them, data URLs in full. */
  items: ResponseItem[];
  report: TillerInputReport;
}

export async function inspectUserInput(input: UserInput[], options: InspectOptions): Promise<Inspection> {
  const [items, skills] = await Promise.all([(options.prepare ?? prepareInput)(input), resolveSkills(input, options.skillsDir)]);
  return {
    items,
    report: {
      parts: describeParts(items),
      skills: skills.map((skill) => ({ name: skill.name, path: skill.path, chars: countChars(skillInjectionText(skill)) })),
      hooks: [...options.hooks],
      textChars: textCharCount(input),
      maxTextChars: MAX_USER_INPUT_TEXT_CHARS,
    },
  };
}
