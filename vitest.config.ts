import path from "node:path";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";

const migrations = await readD1Migrations(path.join(import.meta.dirname, "migrations"));

// The plugin reads wrangler.toml through wrangler, which announces a developer's .dev.vars ("Using secrets
// defined in .dev.vars") at its "log" level. The tests set every variable they read (the bindings below), so
// wrangler says nothing they need below "warn"; its warnings and errors still show.
process.env.WRANGLER_LOG ??= "warn";

/**
 * A project of tests inside workerd: `settings` are variables of its own on top of the common ones (the rooms read
 * them too, which a request's own variables through test/helpers/spend.ts's withSettings can't give them).
 */
const workersProject = (
  name: string,
  include: string[],
  exclude: string[] = [],
  settings: Record<string, string> = {},
) => ({
  plugins: [
    cloudflareTest(({ inject }) => {
      const stub = inject("stubUrl") as string;
      return {
        wrangler: { configPath: "./wrangler.toml" },
        miniflare: {
          // Every provider variable is set here so a developer's own .dev.vars never leaks into tests.
          bindings: {
            TEST_MIGRATIONS: migrations,
            OPENAI_API_KEY: "sk-test-openai-0000",
            OPENAI_BASE_URL: `${stub}/v1`,
            ANTHROPIC_API_KEY: "sk-ant-test-0000",
            ANTHROPIC_BASE_URL: stub,
            GOOGLE_API_KEY: "test-google-0000",
            GEMINI_API_KEY: "",
            GOOGLE_BASE_URL: stub,
            OPENAI_COMPATIBLE_BASE_URL: `${stub}/compat/v1`,
            OPENAI_COMPATIBLE_API_KEY: "",
            OPENAI_COMPATIBLE_MODELS: "local-llama,local-qwen",
            // As `npm start` serves: on loopback only. Tests play many clients from one machine, each its own X-Client-Id.
            QUORUM_LISTEN: "127.0.0.1",
            QUORUM_TRUST_CLIENT_ID: "true",
            QUORUM_DEMO_DELAY_MS: "1",
            QUORUM_RETRY_BASE_MS: "5",
            QUORUM_LOG: "off",
            QUORUM_ARENA_MODELS: "openai:pool-gpt,anthropic:pool-claude,google:pool-gemini",
            QUORUM_ARENA_TIMEOUT_MS: "10000",
            // Votes in these tests come at once; the too_fast flag is tested through the room with its own threshold.
            QUORUM_MIN_VOTE_MS: "0",
            QUORUM_ARENA_MAX_TURNS: "3",
            // Tests create runs, comparisons and votes far faster than a person; the limits get a test of their own.
            QUORUM_RATE_RUNS: "100000",
            QUORUM_RATE_COMPARISONS: "100000",
            QUORUM_RATE_VOTES: "100000",
            // Tests write D1 directly too, which no isolate notices: every leaderboard read checks the data's version.
            QUORUM_LEADERBOARD_STALE_MS: "0",
            // Nothing in the tests is 720 hours old unless a test makes it so (test/integration/archive.test.ts).
            QUORUM_ARCHIVE_AFTER_HOURS: "720",
            QUORUM_PRICES: "openai-compatible:local-qwen=0:0,openai:priced-custom=1:2,openai:gb-priced=1:2",
            ...settings,
          },
        },
      };
    }),
  ],
  test: {
    name,
    include,
    exclude,
    globalSetup: ["test/helpers/stub-global-setup.ts"],
    setupFiles: ["test/helpers/apply-migrations.ts"],
    testTimeout: 20_000,
    hookTimeout: 20_000,
  },
});

/** An evaluation spread over rooms needs caps past six in the rooms themselves: its tests get a project of their own. */
const SHARDS_TESTS = ["test/integration/evaluation-shards.test.ts"];

export default defineConfig({
  test: {
    projects: [
      workersProject("workers", ["test/unit/**/*.test.ts", "test/integration/**/*.test.ts"], SHARDS_TESTS),
      // OpenAI allowed twelve calls at once: two rooms of six.
      workersProject("workers-shards", SHARDS_TESTS, [], { QUORUM_PROVIDER_CONCURRENCY: "openai=12" }),
      {
        test: {
          name: "e2e",
          include: ["test/e2e/**/*.test.ts"],
          environment: "node",
          testTimeout: 120_000,
          hookTimeout: 180_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
