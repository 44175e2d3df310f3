// A build tool's JUnit XML, read before its console (issue 36 item 4): Maven's surefire and
// Gradle write one per test class while the tests run; run_tests reads those the run wrote (a
// report left by an earlier run is not this run's), places each failure at its test class's
// source line, and falls back to the console when none was written. And a real Maven project run
// offline inside the test-run sandbox, where the machine has the artifacts (Maven Central is out
// of reach here, so CI cannot fetch them).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { junitReport } from '../../../src/tools/run-tests/junit-report.js';
import { runTestsTool } from '../../../src/tools/run-tests/run-tests.js';
import type { TestReport } from '../../../src/tools/run-tests/test-report.js';
import { context, tempWorkspace, type TempWorkspace } from './helpers.js';

const SUITE = `<?xml version="1.0" encoding="UTF-8"?>
<testsuite name="demo.LeapTest" tests="4" errors="0" skipped="1" failures="1">
  <testcase name="divisibleBy4" classname="demo.LeapTest" time="0.1"/>
  <testcase name="divisibleBy400()" classname="demo.LeapTest" time="0.01">
    <failure message="2000 is a leap year ==&gt; expected: &lt;true&gt; but was: &lt;false&gt;" type="org.opentest4j.AssertionFailedError"><![CDATA[org.opentest4j.AssertionFailedError: 2000 is a leap year ==> expected: <true> but was: <false>
	at org.junit.jupiter.api.AssertTrue.assertTrue(AssertTrue.java:36)
	at demo.LeapTest.divisibleBy400(LeapTest.java:7)
]]></failure>
  </testcase>
  <testcase name="century" classname="demo.LeapTest"><skipped/></testcase>
  <testcase name="notDivisibleBy4" classname="demo.LeapTest"/>
</testsuite>
`;

describe('run_tests reads the JUnit XML a build tool writes (issue 36 item 4)', function () {
  this.timeout(120_000);
  let t: TempWorkspace;
  afterEach(() => t?.cleanup());

  it("counts a fresh report's cases and places a failure at the test class's source line", async () => {
    t = await tempWorkspace({
      'app/src/test/java/demo/LeapTest.java': 'class LeapTest {}\n',
      'app/build/test-results/test/TEST-demo.LeapTest.xml': SUITE,
      'target/surefire-reports/TEST-old.OldTest.xml': SUITE.replaceAll('demo.LeapTest', 'old.OldTest'),
    });
    const old = new Date(Date.now() - 60_000);
    fs.utimesSync(path.join(t.dir, 'target/surefire-reports/TEST-old.OldTest.xml'), old, old);
    const r = await junitReport(t.ws, Date.now() - 1000);
    assert.deepEqual(r, {
      runner: 'junit',
      passed: 2,
      failed: 1,
      skipped: 1,
      failures: [
        {
          kind: 'test_failure',
          name: 'LeapTest > divisibleBy400',
          file: 'app/src/test/java/demo/LeapTest.java',
          line: 7,
          message: '2000 is a leap year ==> expected: <true> but was: <false>',
        },
      ],
    });
  });

  it('reads none when the run wrote none', async () => {
    t = await tempWorkspace({ 'target/surefire-reports/TEST-demo.LeapTest.xml': SUITE });
    const old = new Date(Date.now() - 60_000);
    fs.utimesSync(path.join(t.dir, 'target/surefire-reports/TEST-demo.LeapTest.xml'), old, old);
    assert.equal(await junitReport(t.ws, Date.now()), undefined);
  });

  it('a Maven project, offline in the test-run sandbox: 2 passed, 1 failed at LeapTest.java:7', async function () {
    t = await tempWorkspace(mavenProject());
    const direct = spawnSync('mvn', ['-o', '-q', 'test'], { cwd: t.dir, encoding: 'utf8' });
    if (direct.error || !/Tests run: 3, Failures: 1/.test(direct.stdout + direct.stderr)) {
      console.log('      (skipped: Maven, or the artifacts this project needs offline, are not on this machine)');
      this.skip();
    }
    fs.rmSync(path.join(t.dir, 'target'), { recursive: true, force: true });
    const r = await runTestsTool.execute({}, { ...context(t.ws), sandbox: 'test_run' });
    const report = (r.data as { report: TestReport }).report;
    assert.deepEqual(
      [report.runner, report.passed, report.failed, report.failures[0]?.file, report.failures[0]?.line],
      ['junit', 2, 1, 'src/test/java/demo/LeapTest.java', 7],
      r.content,
    );
  });
});

function mavenProject(): Record<string, string> {
  const plugin = (id: string, v: string) => `<plugin><artifactId>maven-${id}-plugin</artifactId><version>${v}</version></plugin>`;
  return {
    'pom.xml': [
      '<project xmlns="http://maven.apache.org/POM/4.0.0"><modelVersion>4.0.0</modelVersion>',
      '<groupId>demo</groupId><artifactId>leap</artifactId><version>1.0</version>',
      '<properties><maven.compiler.release>17</maven.compiler.release><project.build.sourceEncoding>UTF-8</project.build.sourceEncoding></properties>',
      '<dependencies><dependency><groupId>org.junit.jupiter</groupId><artifactId>junit-jupiter</artifactId><version>5.10.2</version><scope>test</scope></dependency></dependencies>',
      `<build><plugins>${plugin('surefire', '3.2.5')}${plugin('compiler', '3.13.0')}${plugin('resources', '3.3.1')}</plugins></build>`,
      '</project>',
      '',
    ].join('\n'),
    'src/main/java/demo/Leap.java':
      'package demo;\npublic class Leap {\n  public static boolean isLeap(int y) { return y % 4 == 0 && y % 100 != 0; }\n}\n',
    'src/test/java/demo/LeapTest.java': [
      'package demo;',
      'import static org.junit.jupiter.api.Assertions.*;',
      'import org.junit.jupiter.api.Test;',
      'class LeapTest {',
      '  @Test void notDivisibleBy4() { assertFalse(Leap.isLeap(2015)); }',
      '  @Test void divisibleBy4() { assertTrue(Leap.isLeap(1996)); }',
      '  @Test void divisibleBy400() { assertTrue(Leap.isLeap(2000), "2000 is a leap year"); }',
      '}',
      '',
    ].join('\n'),
  };
}
