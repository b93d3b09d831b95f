/** A policy refusal: which rule, and a sentence the agent can act on. */
export interface Denial {
  rule: string;
  reason: string;
}

/** Thrown by policy checks; tools turn it into a result carrying `denied`. */
export class PolicyDenied extends Error {
  constructor(readonly denial: Denial) {
    super(denial.reason);
    this.name = "PolicyDenied";
  }
  get rule(): string {
    return this.denial.rule;
  }
}

export const deny = (rule: string, reason: string): never => {
  throw new PolicyDenied({ rule, reason });
};
