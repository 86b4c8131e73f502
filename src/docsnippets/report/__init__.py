"""From a comparison to what people read: verdict, JSON report, text, the PR comment, the catalogue."""
