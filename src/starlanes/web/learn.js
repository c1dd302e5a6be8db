// The lobby's "learn to play" box: one button per game starts its guided first game.
import { api } from "./api.js";
import { el } from "./dom.js";
import { startGuidedGame } from "./guide.js";

const GAMES = [["galactic-domination", "Galactic Domination"], ["rift-domination", "Rift Domination"],
  ["interstellar-ambitions", "Interstellar Ambitions"], ["galactic-empires", "Galactic Empires"]];

const box = document.getElementById("learn-games");
const error = document.getElementById("learn-error");
if (box) {
  box.replaceChildren(...GAMES.map(([id, title]) => el("button", { type: "button", class: "small", "data-guide": id, onclick: async () => {
    error.textContent = "";
    const name = (document.getElementById("name")?.value || "").trim() || "Learner";
    try {
      await startGuidedGame(api, id, name);
    } catch (e) {
      error.textContent = e.message;
    }
  } }, title)));
}
