/**
 * Stories of the Storybook recipe (CSF 3): a component that shows the organization's Lists, once with a
 * declared starting state and once from the seed. `render` is plain DOM so the recipe needs no framework.
 */
import type { ComponentAnnotations, Renderer, StoryAnnotations } from "storybook/internal/types";
import { createTalentGraphClient, unwrap } from "../../../client/index.js";
import { sandbox } from "./preview.js";

/** The component: the Lists of the Acme organization, as <li> names. */
export async function renderLists(root: HTMLElement): Promise<void> {
  const apiKey = sandbox.keys.acme;
  const client = createTalentGraphClient({ baseUrl: `${location.origin}/v1`, apiKey });
  const lists = unwrap(await client.GET("/lists")).data;
  const ul = document.createElement("ul");
  ul.append(...lists.map((l) => Object.assign(document.createElement("li"), { textContent: l.name })));
  root.replaceChildren(ul);
}

export default {
  title: "Lists",
} satisfies ComponentAnnotations<Renderer>;

export const WithShortlist = {
  parameters: {
    sandbox: { lists: [{ name: "Shortlist", members: ["https://www.linkedin.com/in/someone-example"] }] },
  },
} satisfies StoryAnnotations<Renderer>;

export const FromTheSeed = {} satisfies StoryAnnotations<Renderer>;
