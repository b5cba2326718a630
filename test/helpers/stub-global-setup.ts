import type { TestProject } from "vitest/node";
import { startProviderStub } from "./provider-stub";

export default async function setup(project: TestProject) {
  const stub = await startProviderStub();
  project.provide("stubUrl", stub.url);
  return () => stub.close();
}
