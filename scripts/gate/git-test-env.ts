/** The environment of git in the gate's tests: a fixed author and committer, so a scratch repository commits. */
export const GIT_ENV = {
  ...process.env,
  GIT_AUTHOR_NAME: "gate test",
  GIT_AUTHOR_EMAIL: "gate@test.invalid",
  GIT_COMMITTER_NAME: "gate test",
  GIT_COMMITTER_EMAIL: "gate@test.invalid",
};
