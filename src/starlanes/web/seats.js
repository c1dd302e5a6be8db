// Seat colours and shapes shared by every table. The palette is the Okabe-Ito set of
// colours that stay apart for the common kinds of colour blindness; every seat also has a
// shape (circle, square, triangle, diamond, star, cross) drawn wherever its colour is, so
// colour is never the only mark. A game whose rules name seats by colour says which colour
// each seat has (its module's seatColours), so the names in the log match what is drawn.
import { svg } from "./dom.js";

export const PALETTE = {
  blue: "#56b4e9", orange: "#e69f00", green: "#009e73",
  purple: "#cc79a7", yellow: "#f0e442", red: "#d55e00",
};
export const DEFAULT_COLOURS = ["blue", "orange", "green", "purple", "yellow", "red"];
export const SHAPES = ["circle", "square", "triangle", "diamond", "star", "cross"];

let names = DEFAULT_COLOURS;

// Set the seats' colours for this page: names[i] is a key of PALETTE for seat i. The
// colours go to the --seat-N custom properties every seat class reads.
export function applySeatColours(given) {
  names = DEFAULT_COLOURS.map((d, i) => (given?.[i] && PALETTE[given[i]] ? given[i] : d));
  names.forEach((n, i) => document.documentElement.style.setProperty(`--seat-${i}`, PALETTE[n]));
}

export function seatColourName(seat) {
  return names[seat % names.length];
}

export function seatShape(seat) {
  return SHAPES[seat % SHAPES.length];
}

// "P1 (orange square)": how a seat is named where only its number is known.
export function seatWords(seat) {
  return `P${seat} (${seatColourName(seat)} ${seatShape(seat)})`;
}

// A small seat mark (the seat's shape in its colour) as an inline SVG for HTML text.
export function seatMark(seat, size = 14) {
  return svg("svg", { class: `sym seat-mark seat-c-${seat % 6}`, width: size, height: size, viewBox: "0 0 24 24", role: "img", "aria-label": seatWords(seat) },
    svg("use", { href: `/static/symbols/common.svg#seat-${seatShape(seat)}` }));
}
