import { ProjectHomeRedirect } from '@/components/layout/project-home-redirect'

export default function HomePage() {
  return (
    <main className="p-10">
      <ProjectHomeRedirect />
    </main>
  )
}
