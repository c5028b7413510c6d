export default function HomePage() {
  return (
    <main>
      <h1>Gatehouse</h1>
      <p>The portal is being built. The gateway&apos;s API lives under <code>/api</code>.</p>
    </main>
  );
}
