/**
 * Runs one story of lists.stories.ts the way Storybook's preview does, without Storybook: the project's
 * loaders (the addon's mswLoader and the sandbox loader, all at once, as Storybook awaits them) with the
 * merged parameters, then the story's render. `?story=<export name>`; `&write=<name>` creates a List
 * during the story (what a play function or a click would do). The page reports in body[data-*].
 */
import type { StoryContextForLoaders, Renderer } from "storybook/internal/types";
import * as stories from "./lists.stories.js";
import preview, { sandbox } from "./preview.js";

const query = new URLSearchParams(location.search);
const name = query.get("story") as "WithShortlist" | "FromTheSeed";
const story = stories[name] as { parameters?: Record<string, unknown> };
const root = document.getElementById("root")!;

try {
  const context = {
    id: `lists--${name}`,
    parameters: { ...preview.parameters, ...story.parameters },
  } as unknown as StoryContextForLoaders<Renderer>;
  const loaders = [preview.loaders ?? []].flat();
  await Promise.all(loaders.map(async (loader) => loader(context)));
  const write = query.get("write");
  if (write) {
    const apiKey = sandbox.keys.acme;
    const res = await fetch("/v1/lists", {
      method: "POST",
      headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
      body: JSON.stringify({ name: write }),
    });
    if (res.status !== 201) throw new Error(`POST /v1/lists answered ${res.status}`);
  }
  await stories.renderLists(root);
  document.body.dataset.done = "1";
} catch (error) {
  document.body.dataset.error = String(error);
}
