/**
 * A test host of the test's own: a network namespace joined to this machine by a veth pair, with addresses
 * the test assigns itself from 198.18.0.0/15 (the range set aside for testing network devices), so a client
 * can reach a server here from another address without any traffic leaving the machine. Needs root and
 * iproute2; `createTestHost` says why it can't, instead of throwing, so the caller can skip with that reason.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";

const run = promisify(execFile);

export interface TestHost {
  /** this machine's end of the link, where the host's traffic arrives */
  serverAddress: string;
  /** the test host's own address */
  clientAddress: string;
  /** runs a command inside the test host's namespace */
  exec: (command: string, args: string[], timeoutMs?: number) => Promise<{ stdout: string; stderr: string }>;
  /** deletes the namespace and the link (idempotent) */
  remove: () => Promise<void>;
}

const ip = (...args: string[]) => run("ip", args, { timeout: 10_000 });

/** A new test host, or the reason one can't be made here. */
export async function createTestHost(): Promise<TestHost | { unavailable: string }> {
  if (process.platform !== "linux") return { unavailable: "network namespaces need Linux" };
  if (process.getuid?.() !== 0) return { unavailable: "creating a network namespace needs root" };
  try {
    await ip("-V");
  } catch {
    return { unavailable: "iproute2's `ip` is not installed (apt-get install -y iproute2)" };
  }
  const n = process.pid % 60_000;
  const ns = `quorum-test-${n}`;
  const [hostSide, nsSide] = [`qh${n}`, `qn${n}`];
  const subnet = `198.18.${n % 250}`;
  const [serverAddress, clientAddress] = [`${subnet}.1`, `${subnet}.2`];
  const remove = async () => {
    await ip("netns", "del", ns).catch(() => undefined);
    // Deleting the namespace takes its end of the pair along; this end may be left on a half-made host.
    await ip("link", "del", hostSide).catch(() => undefined);
  };
  try {
    await ip("netns", "add", ns);
    await ip("link", "add", hostSide, "type", "veth", "peer", "name", nsSide);
    await ip("link", "set", nsSide, "netns", ns);
    await ip("addr", "add", `${serverAddress}/30`, "dev", hostSide);
    await ip("link", "set", hostSide, "up");
    await ip("netns", "exec", ns, "ip", "addr", "add", `${clientAddress}/30`, "dev", nsSide);
    await ip("netns", "exec", ns, "ip", "link", "set", nsSide, "up");
    await ip("netns", "exec", ns, "ip", "link", "set", "lo", "up");
  } catch (err) {
    await remove();
    return { unavailable: `could not create a network namespace: ${(err as Error).message.split("\n")[0]}` };
  }
  return {
    serverAddress,
    clientAddress,
    exec: (command, args, timeoutMs = 30_000) =>
      run("ip", ["netns", "exec", ns, command, ...args], { timeout: timeoutMs }),
    remove,
  };
}
