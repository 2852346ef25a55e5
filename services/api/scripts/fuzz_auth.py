"""schemathesis hook (SCHEMATHESIS_HOOKS=fuzz_auth): the fuzz run's API key, read from the file
BASALT_FUZZ_KEY_FILE names, so the key is on no command line and in no environment."""
import os

import schemathesis


@schemathesis.auth()
class ApiKeyFromFile:
    def get(self, case, context):
        with open(os.environ["BASALT_FUZZ_KEY_FILE"], encoding="utf-8") as f:
            return f.read().strip()

    def set(self, case, data, context):
        case.headers = case.headers or {}
        case.headers["Authorization"] = f"Bearer {data}"
