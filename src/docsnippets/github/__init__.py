"""The GitHub Action: settings, workflow commands, the API client, stage 1 and stage 2."""
