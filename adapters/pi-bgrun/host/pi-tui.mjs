// Stands in for `@earendil-works/pi-tui`, the host's terminal UI kit. The extension uses its
// `Box` and `Text` only in a transcript renderer, which a headless host never calls; these keep
// what they are given so that a call, were one made, would still work.

export class Text {
  constructor(text = "", ...rest) {
    this.text = text;
    this.rest = rest;
  }
  render() {
    return [String(this.text)];
  }
}

export class Box {
  constructor(...args) {
    this.args = args;
    this.children = [];
  }
  addChild(child) {
    this.children.push(child);
  }
  render(width) {
    return this.children.flatMap((c) => (c.render ? c.render(width) : []));
  }
}
