import { describe, expect, it } from "vitest";
import { redact } from "../../worker/redaction/redact";
import { addRedactions, describeRedactions } from "../../worker/shared/redact";

const OPENAI = "sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z";
const ANTHROPIC = "sk-ant-api03-Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2Ji1Hg0Fe-dCbA_987654321";
const GOOGLE = "AIzaSyD3x4mpl3K3yV4lu3F0rT3st1ng0nly12X";
const GITHUB = "ghp_1a2B3c4D5e6F7g8H9i0J1k2L3m4N5o6P7q8R";
const SLACK = "xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx";
const AWS = "AKIAIOSFODNN7EXAMPLE";
const PEM = [
  "-----BEGIN RSA PRIVATE KEY-----",
  "MIIEowIBAAKCAQEA7bq1xZ3kq8yQm0Rk",
  "p2VYqk9vH2pL4eXQ5w==",
  "-----END RSA PRIVATE KEY-----",
].join("\n");

describe("redact masks secrets, counted per kind", () => {
  it.each([
    ["an OpenAI key", `my key is ${OPENAI} thanks`, `my key is [redacted: api key] thanks`],
    ["an Anthropic key", `ANTHROPIC_API_KEY=${ANTHROPIC}`, `ANTHROPIC_API_KEY=[redacted: api key]`],
    ["a Google key", `key: ${GOOGLE}`, `key: [redacted: api key]`],
    [
      "a GitHub token",
      `git clone https://${GITHUB}@github.com/o/r`,
      `git clone https://[redacted: api key]@github.com/o/r`,
    ],
    ["a Slack token", `token ${SLACK}.`, `token [redacted: api key].`],
    ["an AWS access key id", `aws_access_key_id = ${AWS}`, `aws_access_key_id = [redacted: api key]`],
  ])("%s", async (_what, input, output) => {
    const r = await redact(input);
    expect(r.text).toBe(output);
    expect(r.redactions).toEqual({ "api key": 1 });
  });

  it("a bearer token, keeping the word Bearer", async () => {
    const r = await redact(
      'curl -H "Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOjEyM30.c2lnbmF0dXJl" https://api.example.com',
    );
    expect(r.text).toBe('curl -H "Authorization: Bearer [redacted: bearer token]" https://api.example.com');
    expect(r.redactions).toEqual({ "bearer token": 1 });
  });

  it("a whole PEM private key block, and one pasted without its end", async () => {
    const r = await redact(`Here:\n${PEM}\nwhy does ssh refuse it?`);
    expect(r.text).toBe("Here:\n[redacted: private key]\nwhy does ssh refuse it?");
    expect(r.redactions).toEqual({ "private key": 1 });
    const cut = await redact("-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUA\nAAAEbm9uZQ");
    expect(cut.text).toBe("[redacted: private key]");
  });

  it("random-looking values after key=, token=, secret= and password=, in text, URLs and JSON", async () => {
    const r = await redact(
      [
        "https://api.example.com/v1/data?api_key=9fA3kL0pQz7Xw2Rt5Yb8&page=2",
        '{"client_secret": "Q2x0ZWFyLXRleHQtc2VjcmV0LTEyMw"}',
        "DB_PASSWORD=h7G#2kd9",
        "SESSION_TOKEN: a8F3k2L9q0Zx7Vb4Nm1R",
      ].join("\n"),
    );
    expect(r.text).toBe(
      [
        "https://api.example.com/v1/data?api_key=[redacted: credential]&page=2",
        '{"client_secret": "[redacted: credential]"}',
        "DB_PASSWORD=[redacted: password]",
        "SESSION_TOKEN: [redacted: credential]",
      ].join("\n"),
    );
    expect(r.redactions).toEqual({ credential: 3, password: 1 });
  });

  it("email addresses", async () => {
    const r = await redact("Write to jane.doe+quorum@example.co.uk or ops@mail.example.com.");
    expect(r.text).toBe("Write to [redacted: email] or [redacted: email].");
    expect(r.redactions).toEqual({ email: 2 });
  });

  it("several kinds at once, each counted", async () => {
    const r = await redact(
      `key ${OPENAI} and ${GOOGLE}, mail me at a.b@example.org, Authorization: Bearer abcdef0123456789abcdef`,
    );
    expect(r.redactions).toEqual({ "api key": 2, email: 1, "bearer token": 1 });
    expect(r.text).not.toContain(OPENAI);
    expect(r.text).not.toContain("a.b@example.org");
    expect(describeRedactions(r.redactions)).toBe(
      "4 secrets were masked before sending: 1 bearer token, 2 API keys, 1 email address",
    );
  });
});

// Shaped as secretlint's preset and the own rules expect them; made up.
const STRIPE = "sk_live_51H8xQzLkP3vR7tY2mN9bC4dF6gJ1hK0";
const JWT =
  "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U";
const HUGGING_FACE = "hf_AbCdEfGhIjKlMnOpQrStUvWxYzAbCdEfGh";
const GOOGLE_OAUTH = "ya29.a0AfH6SMBx3kPq9ZrT7uVwXy1234567890abcdEFGH";
const NPM = "npm_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8";
const SLACK_WEBHOOK = "https://hooks.slack.com/services/T0123ABCD/B0456EFGH/aBcDeFgHiJkLmNoPqRsTuVwX";

describe("redact masks the secrets people paste into prompts", () => {
  it.each([
    [
      "a Stripe live key (secretlint)",
      `charge with ${STRIPE} please`,
      "charge with [redacted: api key] please",
      { "api key": 1 },
    ],
    ["a Hugging Face token (secretlint)", `HF_TOKEN=${HUGGING_FACE}`, "HF_TOKEN=[redacted: api key]", { "api key": 1 }],
    [
      "an npm token (secretlint)",
      `//registry.npmjs.org/:_authToken ${NPM}.`,
      "//registry.npmjs.org/:_authToken [redacted: api key].",
      { "api key": 1 },
    ],
    [
      "a Slack webhook (secretlint)",
      `post to ${SLACK_WEBHOOK} on deploy`,
      "post to [redacted: api key] on deploy",
      { "api key": 1 },
    ],
    [
      "a database URL's password (secretlint)",
      "DATABASE_URL=postgres://app_user:Zk82xQpL@db.internal:5432/prod",
      "DATABASE_URL=postgres://app_user:[redacted: password]@db.internal:5432/prod",
      { password: 1 },
    ],
    [
      "a MongoDB URL's password (secretlint)",
      "mongodb+srv://admin:Qw3rty77x@cluster0.example.net/db",
      "mongodb+srv://admin:[redacted: password]@cluster0.example.net/db",
      { password: 1 },
    ],
    [
      "Basic auth in a URL (secretlint)",
      "curl https://admin:s3cretPa55@example.com/api",
      "curl https://admin:[redacted: password]@example.com/api",
      { password: 1 },
    ],
    [
      "a password in any other URL",
      "REDIS_URL=redis://default:Xk92mQ4z@cache:6379",
      "REDIS_URL=redis://default:[redacted: password]@cache:6379",
      { password: 1 },
    ],
    [
      "a Basic auth header",
      'curl -H "Authorization: Basic YWRtaW46czNjcmV0UGE1NQ=="',
      'curl -H "Authorization: Basic [redacted: password]"',
      { password: 1 },
    ],
    ["a JWT", `the cookie holds ${JWT} now`, "the cookie holds [redacted: token] now", { token: 1 }],
    ["a Google OAuth access token", `token=${GOOGLE_OAUTH}`, "token=[redacted: token]", { token: 1 }],
    [
      "a password written in prose",
      "my password is Tr0ub4dor&3.",
      "my password is [redacted: password].",
      { password: 1 },
    ],
    [
      "pw is …",
      "ok so the pw is hunter22 but it fails",
      "ok so the pw is [redacted: password] but it fails",
      { password: 1 },
    ],
    [
      "a quoted passphrase",
      'password: "correct horse battery staple"',
      'password: "[redacted: password]"',
      { password: 1 },
    ],
    [
      "a password for something",
      "the password for the admin account is Sp4rkle!",
      "the password for the admin account is [redacted: password]",
      { password: 1 },
    ],
  ])("%s", async (_what, input, output, counts) => {
    const r = await redact(input);
    expect(r.text).toBe(output);
    expect(r.redactions).toEqual(counts);
  });

  it("a key split by a zero-width or other invisible character", async () => {
    for (const invisible of ["\u200B", "\u200C", "\u200D", "\u2060", "\uFEFF", "\u00AD", "\u2063\u200B"]) {
      const r = await redact(`npm token ${NPM.slice(0, 12)}${invisible}${NPM.slice(12)} end`);
      expect(r.text).toBe("npm token [redacted: api key] end");
    }
    const stripe = await redact(`key ${STRIPE.slice(0, 9)}\u200B${STRIPE.slice(9, 20)}\u200D${STRIPE.slice(20)}`);
    expect(stripe.text).toBe("key [redacted: api key]");
  });

  it("a key split by a space, a no-break space or a tab", async () => {
    for (const gap of [" ", "\u00A0", "\u2009", "\t"]) {
      const r = await redact(`split ${STRIPE.slice(0, 22)}${gap}${STRIPE.slice(22)} here`);
      expect(r.text).toBe("split [redacted: api key] here");
      expect(r.redactions).toEqual({ "api key": 1 });
    }
    expect((await redact(`hf ${HUGGING_FACE.slice(0, 3)} ${HUGGING_FACE.slice(3)}`)).text).toBe(
      "hf [redacted: api key]",
    );
    expect((await redact(`the token is ${JWT.slice(0, 40)} ${JWT.slice(40)} ok`)).text).toBe(
      "the token is [redacted: token] ok",
    );
  });

  it("the marks name no secret, and what was around a secret is kept as it was", async () => {
    const input = `emoji 👨‍👩‍👧 stays, café\u00A0au lait stays, and ${STRIPE}`;
    const r = await redact(input);
    expect(r.text).toBe("emoji 👨‍👩‍👧 stays, café\u00A0au lait stays, and [redacted: api key]");
  });
});

describe("redact leaves ordinary text, code, URLs and hashes alone", () => {
  it.each([
    ["prose", "Explain the difference between a mutex and a semaphore, with an example. Bearer bonds are old."],
    ["prose about tokens and keys", "The model has max_tokens=4096 and the API key is set in .dev.vars; token: none."],
    [
      "a git commit hash",
      "The bug came in with commit 3f786850e387550fdab836ed7e6dc881de23001b, see also da39a3ee5e6b4b0d3255bfef95601890afd80709.",
    ],
    ["a sha256 digest", "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"],
    ["a UUID", "run 0b7e2f7a-3c1d-4e5f-8a9b-0c1d2e3f4a5b failed"],
    ["a URL with a query", "https://example.com/search?q=rust+lifetimes&page=2#results"],
    ["a URL with a short token", "https://example.com/reset?token=abc"],
    [
      "code reading a key from the environment",
      'const apiKey = process.env.OPENAI_API_KEY;\nclient = OpenAI(api_key=os.environ["OPENAI_API_KEY"])\ntoken = getToken()',
    ],
    ["code with a secret from settings", "SECRET_KEY = settings.DJANGO_SECRET_KEY_FROM_ENVIRONMENT"],
    ["a kebab-case word after sk-", "see the sk-learn-compatible-estimator-interface docs"],
    ["words that contain sk", "risk-assessment-for-the-quarterly-report-2024"],
    ["an SSH remote", "git remote add origin git@github.com:octo/quorum.git"],
    ["image and package names with @", "icon@2x.png, lodash@4.17.21, @types/node, @Component"],
    ["base64 of ordinary length in prose", "The value aGVsbG8= decodes to hello."],
    ["a placeholder key", "OPENAI_API_KEY=sk-...\nANTHROPIC_API_KEY=your-key-here"],
    [
      "markdown and a fenced block",
      "```ts\nfunction add(a: number, b: number) { return a + b; }\n```\n| a | b |\n| - | - |",
    ],
    [
      "a password rule stated, not a password",
      "The password is required. Passwords are 12 characters; password: ******, pw is <your password>",
    ],
    [
      "code that reads a password",
      "password = form.password\nconst pw = getPassword();\npassword: process.env.DB_PASSWORD\npassword = userInput",
    ],
    [
      "a URL with a user but no password, and a placeholder",
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a config placeholder, as literal text, is no secret
      "ssh://git@github.com/o/r and postgres://user:${PASSWORD}@localhost/db",
    ],
    ["numbers and versions in a sentence", "Python 3.12 and Node 24 run it; HTTP 404 on v2.1 build 7f3a."],
    [
      "a BEGIN PUBLIC KEY block",
      "-----BEGIN PUBLIC KEY-----\nMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE\n-----END PUBLIC KEY-----",
    ],
  ])("%s", async (_what, input) => {
    const r = await redact(input);
    expect(r.text).toBe(input);
    expect(r.redactions).toEqual({});
  });
});

describe("tallies", () => {
  it("add up per kind and describe themselves in one line", () => {
    expect(addRedactions({ "api key": 1 }, { "api key": 2, email: 1 })).toEqual({ "api key": 3, email: 1 });
    expect(describeRedactions({})).toBeNull();
    expect(describeRedactions(undefined)).toBeNull();
    expect(describeRedactions({ "api key": 1, email: 1 })).toBe(
      "2 secrets were masked before sending: 1 API key, 1 email address",
    );
    expect(describeRedactions({ credential: 1 })).toBe("1 secret was masked before sending: 1 credential");
  });
});
