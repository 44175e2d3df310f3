// Test credentials for Claude on the clouds: AWS access keys in the shape AWS documents (its
// own example values), and what google-auth-library's clients give the Vertex SDK (the request's
// headers with a bearer token), so no test ever asks Google or AWS for anything.

export const AWS_TEST_CREDENTIALS = {
  awsAccessKey: 'AKIAIOSFODNN7EXAMPLE',
  awsSecretKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
  awsSessionToken: 'IQoJb3JpZ2luX2VjEXAMPLESESSIONTOKEN',
};

/** What google-auth-library's clients give the Vertex SDK: the request's headers, a bearer token. */
export const GOOGLE_TEST_AUTH = {
  projectId: undefined,
  getRequestHeaders: async () => new Headers({ authorization: 'Bearer ya29.test-access-token' }),
} as never;

/** Environment variables set (or, undefined, removed) for a test; the function puts them back. */
export function withEnv(vars: Record<string, string | undefined>): () => void {
  const saved = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]));
  for (const [k, v] of Object.entries(vars)) v === undefined ? delete process.env[k] : (process.env[k] = v);
  return () => {
    for (const [k, v] of Object.entries(saved)) v === undefined ? delete process.env[k] : (process.env[k] = v);
  };
}
