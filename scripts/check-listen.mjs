// Runs before `npm start` serves: says plainly when HOST makes Quorum reachable from other machines while no
// APP_TOKEN is set, since the Worker will then refuse every API call (worker/api/access.ts).
import { existsSync, readFileSync } from "node:fs";

const host = (process.env.HOST || "127.0.0.1").trim().toLowerCase();
const loopback = host === "localhost" || host === "::1" || /^127(\.\d{1,3}){3}$/.test(host);

/** APP_TOKEN with a value in a file wrangler dev reads vars from. */
const tokenIn = (file) => existsSync(file) && /^\s*APP_TOKEN\s*=\s*["']?[^\s"']/m.test(readFileSync(file, "utf8"));

if (!loopback && !tokenIn(".dev.vars") && !tokenIn(".env")) {
  console.warn(
    [
      "",
      `Quorum will listen on ${host}, where other machines can reach it, and no APP_TOKEN is set.`,
      "It will refuse every API call, from this machine too, so nobody can spend on your provider keys.",
      "Put a token in .dev.vars (APP_TOKEN=<a long random string>) and start again, or run `npm start` without HOST.",
      "",
    ].join("\n"),
  );
}
