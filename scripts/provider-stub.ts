// `npm run stub`: the tests' provider stub as a standalone server, so the OpenAI, Anthropic and Gemini
// code paths (the real SDKs, streaming, structured reviews) can be tried by hand without any key.
import { startProviderStub } from "../test/helpers/provider-stub";

const port = Number(process.env.STUB_PORT ?? 8790);
const stub = await startProviderStub(port);
console.log(`Provider stub listening on ${stub.url} (OpenAI, Anthropic, Gemini and OpenAI-compatible wire protocols).
Put these lines in .dev.vars, then run \`npm start\` in another terminal and pick any openai:, anthropic:,
google: or openai-compatible: model name:

OPENAI_API_KEY=stub-openai
OPENAI_BASE_URL=${stub.url}/v1
ANTHROPIC_API_KEY=stub-anthropic
ANTHROPIC_BASE_URL=${stub.url}
GOOGLE_API_KEY=stub-google
GOOGLE_BASE_URL=${stub.url}
OPENAI_COMPATIBLE_BASE_URL=${stub.url}/compat/v1
OPENAI_COMPATIBLE_MODELS=stub-llama,stub-qwen

Every model answers with a fixed text and reviews with valid JSON. Ctrl+C stops it.`);

const stop = () => void stub.close().then(() => process.exit(0));
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
