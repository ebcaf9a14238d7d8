//! The `--help` text: every option, the environment, the outputs and the exit codes.

/// One line for errors about arguments.
pub const USAGE: &str = "usage: streamscope-check --url URL [options] | --targets FILE [options]   (--help for all)";

/// The full help.
pub const HELP: &str = "\
streamscope-check: the streamscope page as a command. Opens the page in a real headless Chromium
through WebDriver, runs a request through the page's automation contract, reads the JSON report
(#report-json) and checks its verdict and times.

USAGE
  streamscope-check --url URL [--method M] [--body JSON|@FILE] [--vs URL] [--hops URL,URL]
                    [--repeat N] [--expect VERDICT] [--max-ttft-ms MS] [--max-tpot-ms MS] ...
  streamscope-check --targets FILE [--parallel N] [same defaults as above] ...

WHAT TO MEASURE (the page's query parameters)
  --url URL            exact request URL (http or https)
  --method M           HTTP method (default GET, or POST when a body is given)
  --body JSON|@FILE    request body, sent as Content-Type: application/json; @FILE reads a file
  --name NAME          name for the output line, the report file and JUnit (default: the URL)
  --vs URL             compare: the same request also sent to this URL (side B)
  --hops URL,URL,...   hop ladder: the same request at each URL, in path order (at most 8)
  --hop-labels A,B,... names of the hops
  --repeat N           runs per target, 1 to 50
  --page-param K=V     any other page parameter (e.g. idle_timeout_s=5, concurrency=1,4,8,
                       at_once=1); repeatable
  --share-key          with a key: also send it to a second origin (vs/hops), ticking the page's
                       share-key-b box; without this another origin gets no key

WHAT MUST HOLD
  --expect V[,V]       acceptable verdicts: streaming, buffered, collected, failed
                       (default: anything but failed)
  --max-ttft-ms MS     time to first token must not exceed MS
  --max-tpot-ms MS     time per output token must not exceed MS
  --max-total-ms MS    time to the last byte must not exceed MS
  A threshold whose metric the report does not have (no token arrived) fails.
  Which figures are checked:
    one run            the run
    --repeat N         the medians and the most frequent verdict (the page's summary), not each run
    --vs URL           each side (its medians and most frequent verdict)
    --hops ...         every hop (its medians and most frequent verdict)
    concurrency sweep  the verdict of the lowest level; the times of every level (p50)
  The output line says which applied.

MANY TARGETS
  --targets FILE       one target per line (a URL or a JSON object), or a JSON list of URLs and
                       objects with url, name, method, body, vs, hops, hop_labels, repeat, expect,
                       max_ttft_ms, max_tpot_ms, max_total_ms, page_params. The options above are
                       defaults that each entry may override. Not together with --url.
  --parallel N         targets checked at once, one WebDriver session each (default 1; 1 to 32).
                       On one machine, parallel browsers share its cores: timing gets noisier.

THE PAGE AND THE BROWSER
  --bundle DIR         the built page (trunk build --release output) to serve on 127.0.0.1 with the
                       page's security headers (default: dist/ next to the binary, else ./dist)
  --page URL           use a deployed copy of the page instead of serving one
  --webdriver URL      an existing WebDriver server (chromedriver, Selenium Grid, a browser farm;
                       plain http) instead of starting chromedriver here
  --timeout-s S        the most one target may take, from asking for a browser to the report
                       (default 300)

OUTPUT
  stdout               one line per target: PASS/FAIL/ERROR, name, verdict, TTFT, TPOT, finding
                       codes and the reason
  stderr               progress
  --out DIR            the full JSON report of each target: DIR/<name or target-N>.json
  --junit FILE         JUnit XML: one testsuite, one testcase per target (<failure> when a check
                       failed, <error> when it could not run)

ENVIRONMENT
  STREAMSCOPE_API_KEY  API key: typed into the page's key field, then Run is clicked. Never put it
                       in an argument; it never appears in the output or the files.
  CHROMEDRIVER         chromedriver to start (default: chromedriver on PATH)
  CHROME               browser binary for the session (default: chromium on PATH when chromedriver
                       is started here; the WebDriver server's own with --webdriver)

EXIT CODES
  0  every target passed
  1  the check ran and a verdict or threshold failed (an HTTP error or a dead endpoint is the
     verdict failed, so it is 1 too)
  2  a check could not run: bad arguments, no chromedriver or browser, WebDriver unreachable,
     the page did not load, no report within --timeout-s, or SIGINT/SIGTERM stopped it (the
     JUnit file is still written); with several targets, 2 wins over 1
";
