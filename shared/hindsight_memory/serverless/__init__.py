"""The core of the serverless handlers: typed trigger events, the SQS batch consumer of the single writer,
scheduled tasks, a local runner that plays Lambda's event sources against an emulator, and cold-start timing.

Kept import-light on purpose: each handler imports only the submodules it needs."""
