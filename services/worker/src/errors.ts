// Errors a job step can end with. A StepError carries what the operation's fault records:
// the step, the tool's exit status and the tail of its output.

export interface Fault {
  /** `<step>_failed`, so clients can branch on it. */
  code: string;
  step: string;
  message: string;
  exit_code: number | null;
  output_tail: string;
}

export class StepError extends Error {
  constructor(
    readonly step: string,
    message: string,
    readonly exitCode: number | null = null,
    readonly outputTail = '',
    /** Worth trying again (a lock held elsewhere, a connection refused while booting). */
    readonly transient = false,
  ) {
    super(message);
    this.name = 'StepError';
  }

  toFault(): Fault {
    return { code: `${this.step}_failed`, step: this.step, message: this.message, exit_code: this.exitCode, output_tail: this.outputTail };
  }
}

export function faultOf(step: string, error: unknown): Fault {
  if (error instanceof StepError) return error.toFault();
  const message = error instanceof Error ? error.message : String(error);
  return { code: `${step}_failed`, step, message, exit_code: null, output_tail: '' };
}
