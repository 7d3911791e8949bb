// The parser is GopherJS output without type declarations; its nodes are handled as untyped data.
declare module 'mvdan-sh' {
  const sh: { syntax: any };
  export default sh;
}
