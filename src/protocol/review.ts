/** Codex's review output (`ReviewOutputEvent`): the findings a review turn reports, snake_case as the model writes them. */
export interface ReviewFinding {
  title: string;
  body: string;
  confidence_score: number;
  /** 0 (P0, most urgent) to 3; absent when the model gave none. */
  priority?: number | null;
  code_location: { absolute_file_path: string; line_range: { start: number; end: number } };
}

export interface ReviewOutput {
  findings: ReviewFinding[];
  overall_correctness: string;
  overall_explanation: string;
  overall_confidence_score: number;
}

/** Tiller's: a review turn's findings, sent with its `exitedReviewMode` item (`itemId`). */
export interface TillerReviewOutput {
  threadId: string;
  turnId: string;
  itemId: string;
  output: ReviewOutput;
}
