import type { z } from "zod";

/** Zod issues as one sentence that names each offending field. */
export function formatValidationError(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.length ? i.path.join(".") : "(arguments)"}: ${i.message}`).join("; ");
}
