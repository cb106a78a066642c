/**
 * Components register a check here; the readiness route answers 200 only when all pass. Kubernetes
 * keeps a pod out of the Service until then (for example, until a consumer has caught up).
 */
export type ReadinessCheck = () => boolean | Promise<boolean>;

export class Readiness {
  private readonly checks = new Map<string, ReadinessCheck>();

  register(name: string, check: ReadinessCheck): void {
    this.checks.set(name, check);
  }

  async report(): Promise<{ ready: boolean; checks: Record<string, boolean> }> {
    const checks: Record<string, boolean> = {};
    for (const [name, check] of this.checks) {
      try {
        checks[name] = await check();
      } catch {
        checks[name] = false;
      }
    }
    return { ready: Object.values(checks).every(Boolean), checks };
  }
}
