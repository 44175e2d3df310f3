// Issue 35 item 7, end to end: a real `keel run --provider bedrock` and `--provider vertex`, each
// with a tool call, against a stand-in on 127.0.0.1 speaking the cloud's wire (Bedrock's
// event-stream framing; Vertex's server-sent events). Bedrock signs with the AWS credentials in
// the environment; Vertex gets its token through Google's application default credentials — a
// workload identity file whose token exchange is the stand-in's, so nothing reaches Google. The
// approved printenv shows the command never saw the cloud's credentials.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { AWS_TEST_CREDENTIALS } from '../../support/cloud-auth.js';
import { spawnKeel } from '../../support/keel-cli.js';
import { conversation, startModelServer, type ModelServer, type Responder } from '../../support/model-server.js';
import { outsideTmp } from '../../support/sandbox.js';
import { scratchDir } from '../../support/scratch.js';

const SCRIPT = conversation([{ toolCalls: [{ name: 'run_command', input: { command: 'printenv' } }] }, { text: ['Done.'] }]);

/** The environment's AWS credentials, in AWS's own variables. */
const AWS_ENV = {
  AWS_ACCESS_KEY_ID: AWS_TEST_CREDENTIALS.awsAccessKey,
  AWS_SECRET_ACCESS_KEY: AWS_TEST_CREDENTIALS.awsSecretKey,
  AWS_SESSION_TOKEN: AWS_TEST_CREDENTIALS.awsSessionToken,
  AWS_EC2_METADATA_DISABLED: 'true',
};

const GOOGLE_TOKEN = 'ya29.keel-test-exchanged-token';

/** The stand-in answers Google's token exchange (STS) as well as the model's requests. */
function withTokenExchange(model: Responder): Responder {
  let turns = 0;
  return (req) => {
    if (req.path === '/v1/token')
      return {
        type: 'json',
        status: 200,
        body: {
          access_token: GOOGLE_TOKEN,
          issued_token_type: 'urn:ietf:params:oauth:token-type:access_token',
          token_type: 'Bearer',
          expires_in: 3600,
        },
      };
    return model(req, turns++);
  };
}

/** Application default credentials of a workload identity pool, its subject token in a file. */
function googleCredentials(dir: string, server: ModelServer): string {
  fs.writeFileSync(path.join(dir, 'subject-token'), 'eyJhbGciOiJSUzI1NiJ9.keel-test-subject.sig');
  const file = path.join(dir, 'application_default_credentials.json');
  fs.writeFileSync(
    file,
    JSON.stringify({
      type: 'external_account',
      audience: '//iam.googleapis.com/projects/123456789/locations/global/workloadIdentityPools/keel/providers/keel-test',
      subject_token_type: 'urn:ietf:params:oauth:token-type:jwt',
      token_url: `${server.url}/v1/token`,
      credential_source: { file: path.join(dir, 'subject-token') },
      // Were the project looked up (it must not be: --project names it), the stand-in would see it.
      cloud_resource_manager_url: `${server.url}/v1/projects/`,
    }),
  );
  return file;
}

/** What a run shows: its exit, output, and the requests the stand-in saw. */
interface CloudRun {
  code: number | null;
  stdout: string;
  stderr: string;
  server: ModelServer;
}

describe('keel run on Claude through Bedrock and Vertex', function () {
  this.timeout(90_000);
  let server: ModelServer | undefined;
  afterEach(async () => server?.close());

  async function run(
    flags: (server: ModelServer) => string[],
    env: (dir: string, server: ModelServer) => Record<string, string>,
    respond: Responder = SCRIPT,
  ): Promise<CloudRun> {
    const dir = scratchDir('cli-cloud');
    const work = path.join(dir, 'project');
    fs.mkdirSync(work);
    fs.mkdirSync(path.join(dir, 'tmp'));
    server = await startModelServer(respond);
    const base = { HOME: dir, XDG_CONFIG_HOME: path.join(dir, 'config'), XDG_CACHE_HOME: path.join(dir, 'cache'), HARMLESS: 'visible' };
    const args = ['run', '--workspace', work, '--allow-command', 'printenv', '--sandbox', 'off', ...flags(server), 'show the env'];
    const result = await spawnKeel(args, dir, { ...base, ...outsideTmp(path.join(dir, 'tmp')), ...env(dir, server) });
    return { ...result, server };
  }

  /** The task ran its tool call and finished; the command's output went back without `hidden`. */
  function assertToolTurn(r: CloudRun, hidden: Record<string, string>): string {
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.equal(r.server.requests.length, 2, 'the tool turn, then the answer after its result');
    const next = JSON.stringify(r.server.requests[1]!.body);
    assert.match(next, /HARMLESS=visible/, 'printenv ran and its output went back');
    for (const [name, value] of Object.entries(hidden)) {
      assert.ok(!next.includes(`${name}=`), `${name} reached the command`);
      assert.ok(!next.includes(value), `${name}'s value reached the model`);
      assert.ok(!r.stdout.includes(value) && !r.stderr.includes(value), `${name}'s value was printed`);
    }
    assert.match(r.stdout, /Done\./);
    return next;
  }

  it("--provider bedrock: a tool-call task signed with the environment's AWS credentials, which the command never sees", async () => {
    const r = await run(
      (s) => [
        '--provider',
        'bedrock',
        '--region',
        'us-west-2',
        '--base-url',
        s.url,
        '--model',
        'us.anthropic.claude-sonnet-4-5-20250929-v1:0',
      ],
      () => AWS_ENV,
    );
    assertToolTurn(r, {
      AWS_ACCESS_KEY_ID: AWS_ENV.AWS_ACCESS_KEY_ID,
      AWS_SECRET_ACCESS_KEY: AWS_ENV.AWS_SECRET_ACCESS_KEY,
      AWS_SESSION_TOKEN: AWS_ENV.AWS_SESSION_TOKEN,
    });
    for (const request of r.server.requests) {
      assert.equal(request.api, 'bedrock', request.path);
      assert.match(
        String(request.headers.authorization),
        /^AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE\/\d{8}\/us-west-2\/bedrock\/aws4_request, /,
      );
    }
    // The tool result went back to Bedrock as Anthropic's tool_result block.
    const results = r.server.requests[1]!.body.messages.flatMap((m: { content: unknown }) => (Array.isArray(m.content) ? m.content : []));
    assert.ok(results.some((b: { type: string }) => b.type === 'tool_result'));
  });

  it('--provider vertex: a tool-call task on application default credentials, whose file the command is not told', async () => {
    let file = '';
    const r = await run(
      (s) => ['--provider', 'vertex', '--region', 'us-east5', '--project', 'keel-test', '--base-url', `${s.url}/v1`],
      (dir, s) => {
        file = googleCredentials(dir, s);
        return { GOOGLE_APPLICATION_CREDENTIALS: file, METADATA_SERVER_DETECTION: 'none' };
      },
      withTokenExchange(SCRIPT),
    );
    // Both model requests carry the token the exchange gave; the exchange itself was asked once.
    const model = r.server.requests.filter((q) => q.api === 'vertex');
    assert.equal(model.length, 2, r.stdout + r.stderr);
    for (const request of model) {
      assert.equal(
        request.path,
        '/v1/projects/keel-test/locations/us-east5/publishers/anthropic/models/claude-sonnet-4-5@20250929:streamRawPredict',
      );
      assert.equal(request.headers.authorization, `Bearer ${GOOGLE_TOKEN}`);
    }
    assert.equal(r.server.requests.filter((q) => q.path === '/v1/token').length, 1);
    assert.equal(r.server.requests.length, 3, 'the exchange and the two turns, nothing else');
    const only = { ...r, server: { ...r.server, requests: model } };
    assertToolTurn(only, { GOOGLE_APPLICATION_CREDENTIALS: file });
  });

  it('--pass-env cannot hand a command the cloud credentials Keel signs with', async () => {
    const dir = scratchDir('cli-cloud-usage');
    for (const name of ['AWS_SESSION_TOKEN', 'GOOGLE_APPLICATION_CREDENTIALS']) {
      const r = await spawnKeel(['run', '--pass-env', name, 'x'], dir, {});
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr, /never passes its own API keys/);
    }
  });
});
