#!/usr/bin/env node
// The avaspec CLI runs from its TypeScript sources, through tsx's loader.
import { register } from "tsx/esm/api";

register();
await import("../generator/cli.ts");
